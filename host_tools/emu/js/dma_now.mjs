// DMA transfers paced by a DREQ happen at the moment the DREQ is raised, inside whatever raised
// it: a state machine's step in the fabric (a byte pushed, a word pulled), or the CPU starting a
// channel. rp2040js schedules each transfer as an alarm on the board's clock, which is the CPU's
// time; the fabric runs behind the CPU (docs/emulated-tiles.md), so a transfer would land at
// the CPU's time, after the CPU had read the channel's count. A real channel moves a word
// within a few cycles of its DREQ; here it moves it at once, in the same emulated instant, as
// the alarm at zero delay did. Channels paced by a DMA timer keep their alarms.

const TREQ_PERMANENT = 63;

export function immediateDma(mcu) {
  const dma = mcu.dma;
  for (const channel of dma.channels) {
    const scheduleOnTimer = channel.scheduleTransfer.bind(channel);
    let moving = false;
    let again = false;
    channel.scheduleTransfer = () => {
      if (!dma.dreq[channel.treqValue] && channel.treqValue !== TREQ_PERMANENT) {
        scheduleOnTimer();
        return;
      }
      if (moving) {
        again = true; // the transfer under way asks for the next: the loop below makes it
        return;
      }
      moving = true;
      try {
        do {
          again = false;
          channel.transfer();
        } while (again && channel.active);
      } finally {
        moving = false;
      }
    };
  }
}
