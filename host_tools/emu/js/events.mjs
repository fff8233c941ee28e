// Things to do at given emulated times, in time order (equal times: in the order added).

export class EventQueue {
  constructor() {
    this.list = [];
  }

  /** The time of the next event (Infinity when there is none). */
  get nextT() {
    return this.list.length ? this.list[0].t : Infinity;
  }

  get length() {
    return this.list.length;
  }

  /** Call fn() at time t. */
  add(t, fn) {
    const list = this.list;
    let i = list.length;
    while (i > 0 && list[i - 1].t > t) {
      i--;
    }
    list.splice(i, 0, { t, fn });
  }

  /** Take the next event out and run it. */
  runNext() {
    this.list.shift().fn();
  }

  clear() {
    this.list = [];
  }
}
