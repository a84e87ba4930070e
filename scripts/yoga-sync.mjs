// What the bundle gives Ink for `yoga-layout` (see yogaSync in bundling.mjs): the same wasm, the same
// wrapper and enums, but compiled and instantiated synchronously from bytes decoded with Buffer.
// The package's own entry fetches its inlined data: URL (which loads Node's whole fetch machinery)
// and compiles it on V8's background threads, where it queues behind the start-up's other
// compile work: together about 65 ms of a 160 ms Ink start, against about 12 ms here.
// No top-level await either, so the TUI can be bundled as CommonJS (dist/tui.cjs): given an
// instantiateWasm that answers at once, Emscripten's factory has filled in the module object by
// the time it returns (its promise only resolves to that same object).
import loadYogaWasm, { YOGA_WASM_BASE64 } from 'yoga-layout/binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from 'yoga-layout/src/wrapAssembly.js';

export * from 'yoga-layout/src/generated/YGEnums.js';

const bytes = Buffer.from(YOGA_WASM_BASE64, 'base64');
const yogaModule = {
  // Emscripten's hook for embedders that instantiate the module themselves.
  instantiateWasm(imports, receive) {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports);
    receive(instance);
    return instance.exports;
  },
};
void loadYogaWasm(yogaModule);
// A yoga-layout release whose factory stops running synchronously fails here, at the first start.
if (yogaModule.calledRun !== true) throw new Error('yoga-layout did not start synchronously');
const Yoga = wrapAssembly(yogaModule);
export default Yoga;
