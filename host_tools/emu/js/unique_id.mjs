// The flash's Read Unique ID command (0x4B, 4 dummy bytes, 8 ID bytes), which the SDK sends
// through the SSI at boot, answered with the tile's serial number: each emulated tile has its
// own, as each board's flash chip has.

const SSI_DR0 = 0x60;
const FLASH_READ_UNIQUE_ID = 0x4b;

/** Make `mcu`'s SSI answer the unique-ID command with the 8 bytes of `serial`. */
export function answerUniqueId(mcu, serial) {
  const ssi = mcu.peripherals[0x18000];
  const read = ssi.readUint32.bind(ssi);
  const write = ssi.writeUint32.bind(ssi);
  let sent = -1;
  const answers = [];
  ssi.writeUint32 = (offset, value) => {
    if (offset === SSI_DR0) {
      if (sent < 0 && value === FLASH_READ_UNIQUE_ID) {
        sent = 0;
      }
      if (sent >= 0) {
        answers.push(sent >= 5 ? serial[sent - 5] : 0);
        sent = sent === 12 ? -1 : sent + 1;
        return;
      }
    }
    write(offset, value);
  };
  ssi.readUint32 = (offset) => {
    if (offset === SSI_DR0 && answers.length) {
      return answers.shift();
    }
    return read(offset);
  };
}
