// Ink imports react-devtools-core only when DEV is set; the bundle never ships it.
export default { initialize() {}, connectToDevTools() {} };
