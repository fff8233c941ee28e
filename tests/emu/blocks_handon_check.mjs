// What a tile's next board (after a reset or a power cut) takes of its compiled blocks: all of
// them, unless a CPU store changed the bootrom or flash code (rp2040js lets one through; the
// reset reloads both without it), or the board had none.
//
// node blocks_handon_check.mjs HARNESS_DIR: prints one JSON line.

import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [harness] = process.argv.slice(2);
const blocks = await import(pathToFileURL(path.join(harness, 'thumb_blocks.mjs')).href);

const first = {};
blocks.wireBlocks(first);
const made = first.blocks;
const second = {};
blocks.wireBlocks(second, first);
const handed = second.blocks === made;
const afterPeripheralStore = {};
blocks.storedOutsideSram(second, 0x40054000, 4); // the timer: no code there
blocks.wireBlocks(afterPeripheralStore, second);
const handedAfterPeripheralStore = afterPeripheralStore.blocks === made;
const afterFlashStore = {};
blocks.storedOutsideSram(afterPeripheralStore, 0x10001000, 4);
blocks.wireBlocks(afterFlashStore, afterPeripheralStore);
const freshAfterFlashStore = afterFlashStore.blocks !== made;
const afterRomStore = {};
const beforeRomStore = afterFlashStore.blocks;
blocks.storedOutsideSram(afterFlashStore, 0x100, 2);
blocks.wireBlocks(afterRomStore, afterFlashStore);

console.log(
  JSON.stringify({
    handed,
    oldBoardLetGo: first.blocks === undefined,
    handedAfterPeripheralStore,
    freshAfterFlashStore,
    freshAfterRomStore: afterRomStore.blocks !== beforeRomStore,
  })
);
