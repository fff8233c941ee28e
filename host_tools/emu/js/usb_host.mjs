// The USB host at the other end of a tile's serial port, as a computer's CDC driver behaves.
//
// - Opening the port is connecting: while a host process has the tile's pseudo-terminal open,
//   the host has sent SET_CONTROL_LINE_STATE with DTR and RTS set (what pyserial's open does
//   through Linux's cdc-acm); when nobody has it open, with both clear. MicroPython's CDC waits
//   for a full TX FIFO only while DTR is set (shared/tinyusb/mp_usbd_cdc.c).
// - A connected host takes the device's IN packets only while it has room: each packet's bytes
//   go into the pseudo-terminal (written here, at the moment the packet is taken); while the
//   terminal is full (a host process that does not read), the host answers NAK and the
//   device's FIFO fills, exactly as on a board. A disconnected host takes every packet for the
//   log the tests read, and drops it (a real one NAKs, and the device's FIFO keeps the latest
//   bytes for whoever opens the port next: docs/emulated-tiles.md).
// - Read requests (OUT) are held until the host has bytes for the device (rp2040js answers
//   each at once with an empty packet: an interrupt storm).
// - Start-of-frame: while the device enables its SOF interrupt, the host sends one every 1 ms
//   (MicroPython enables it for 16 frames after DTR rises, then flushes its FIFO).

import fs from 'node:fs';
import { USBCDC } from 'rp2040js';

const EP0_IN_BUFFER_CONTROL = 0x80;
const USB_BUF_CTRL_AVAILABLE = 1 << 10;
const SOF_RD = 0x48;
const INTR_DEV_SOF = 1 << 17;
const INTE = 0x90;
const FRAME_NS = 1e6;
const DTR_RTS = 3;

export class UsbHost {
  /**
   * @param ptyFd the pseudo-terminal's master end, or -1 (bytes only go to `onData`)
   * @param onData onData(bytes): every packet the host takes (the log)
   */
  constructor(ptyFd, onData) {
    this.ptyFd = ptyFd;
    this.onData = onData;
    this.open = false; // a host process has the port open
    this.toDevice = []; // bytes for the device it has not asked for yet
    this.waiting = null; // bytes taken from the device that the terminal has no room for
    this.nakked = 0; // IN packets refused while the terminal was full
  }

  /** A new board (power-up or reset) on the bus: enumerate it, then set its line state. */
  attach(mcu, onUp) {
    const usb = mcu.usbCtrl;
    const cdc = new USBCDC(usb);
    this.mcu = mcu;
    this.usb = usb;
    this.cdc = cdc;
    this.heldRead = 0; // size of a device read request waiting for host bytes
    this.heldIn = []; // IN buffers armed by the device that the host has not taken
    this.lineSent = -1; // the line state the device last got (-1: enumerating)
    this.control = false; // a control request is under way
    this.waiting = null;
    cdc.onDeviceConnected = () => {
      this.lineSent = DTR_RTS; // rp2040js ends enumeration with DTR and RTS set
      this.control = true;
      onUp();
    };
    cdc.onSerialData = (buffer) => this.take(buffer);
    const onWrite = usb.onEndpointWrite;
    usb.onEndpointWrite = (endpoint, buffer) => {
      const asked = this.control && this.lineSent >= 0;
      onWrite(endpoint, buffer);
      if (asked && endpoint === 0 && buffer.length === 0) {
        this.control = false; // the device acknowledged the last line state
        this.sendLine();
      }
    };
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) {
        return;
      }
      if (this.toDevice.length === 0) {
        this.heldRead = size; // answer when the host has something to say
        return;
      }
      this.answerRead(size);
    };
    const dpramUpdated = usb.DPRAMUpdated.bind(usb);
    this.dpramUpdated = dpramUpdated;
    usb.DPRAMUpdated = (offset, value) => {
      if (
        value & USB_BUF_CTRL_AVAILABLE &&
        cdc.inEndpoint > 0 &&
        offset === EP0_IN_BUFFER_CONTROL + 8 * cdc.inEndpoint &&
        this.mustNak()
      ) {
        this.heldIn.push([offset]); // armed, not taken: the host answers NAK
        this.nakked++;
        return;
      }
      dpramUpdated(offset, value);
    };
    this.sofAlarm = mcu.clock.createAlarm(() => this.frame());
    this.sofOn = false;
    const read = usb.readUint32.bind(usb);
    usb.readUint32 = (offset) => {
      if (offset === SOF_RD && usb.intRaw & INTR_DEV_SOF) {
        usb.intRaw &= ~INTR_DEV_SOF; // reading SOF_RD clears the interrupt
        usb.checkInterrupts();
      }
      return read(offset);
    };
    const write = usb.writeUint32.bind(usb);
    usb.writeUint32 = (offset, value) => {
      write(offset, value);
      if (offset === INTE) {
        const on = (usb.intEnable & INTR_DEV_SOF) !== 0;
        if (on && !this.sofOn) {
          this.sofAlarm.schedule(FRAME_NS);
        } else if (!on && this.sofOn) {
          this.sofAlarm.cancel();
        }
        this.sofOn = on;
      }
    };
  }

  frame() {
    const usb = this.usb;
    usb.sofFrameNumber = (usb.sofFrameNumber + 1) & 0x7ff;
    usb.intRaw |= INTR_DEV_SOF;
    usb.checkInterrupts();
    if (usb.intEnable & INTR_DEV_SOF) {
      this.sofAlarm.schedule(FRAME_NS);
    } else {
      this.sofOn = false;
    }
  }

  /** A host process opened (true) or closed the port. */
  setOpen(open) {
    this.open = open;
    if (!open) {
      this.waiting = null; // the terminal's unread bytes go with the host that closed it
      this.release();
    }
    this.sendLine();
  }

  sendLine() {
    const want = this.open ? DTR_RTS : 0;
    if (this.cdc && this.lineSent >= 0 && !this.control && want !== this.lineSent) {
      this.lineSent = want;
      this.control = true;
      this.cdc.cdcSetControlLineState(want);
    }
  }

  mustNak() {
    return this.open && this.waiting !== null;
  }

  /** The host takes an IN packet's bytes. */
  take(buffer) {
    this.onData(buffer);
    if (!this.open || this.ptyFd < 0) {
      return;
    }
    this.waiting = this.waiting ? Buffer.concat([this.waiting, buffer]) : Buffer.from(buffer);
    this.flush();
  }

  /** Move what the host holds into the terminal as far as it has room; when all of it went,
   * the host takes the packets it refused. */
  flush() {
    if (this.waiting !== null) {
      try {
        const n = fs.writeSync(this.ptyFd, this.waiting);
        this.waiting = n >= this.waiting.length ? null : this.waiting.subarray(n);
      } catch (err) {
        if (err.code !== 'EAGAIN') {
          this.waiting = null; // the terminal is gone: drop, as a board's USB drops it
        }
      }
    }
    if (this.waiting === null) {
      this.release();
    }
  }

  release() {
    while (this.heldIn.length && !this.mustNak()) {
      const [offset] = this.heldIn.shift();
      const value = this.mcu.usbDPRAMView.getUint32(offset, true); // as the device left it
      if (value & USB_BUF_CTRL_AVAILABLE) {
        this.dpramUpdated(offset, value);
      }
    }
  }

  answerRead(size) {
    const n = Math.min(size, this.toDevice.length);
    const buffer = Uint8Array.from(this.toDevice.splice(0, n));
    this.usb.endpointReadDone(this.cdc.outEndpoint, buffer);
  }

  /** Bytes from the host process for the device. */
  write(bytes) {
    for (const b of bytes) {
      this.toDevice.push(b);
    }
    if (this.heldRead && this.cdc && this.cdc.outEndpoint >= 0) {
      const size = this.heldRead;
      this.heldRead = 0;
      this.answerRead(size);
    }
  }

  /** The board loses power: nothing is left on the bus. */
  unplug() {
    this.toDevice = [];
    this.heldRead = 0;
    this.heldIn = [];
    this.waiting = null;
    this.cdc = null;
  }
}
