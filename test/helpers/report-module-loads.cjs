// Preloaded with `node --require` by tests that check what a process loads: prints one line to stderr
// when the first file of the package named by STAGEGRAPH_TEST_REPORT_PACKAGE is compiled, however it was
// reached (require, or import of a CommonJS package).
const Module = require('node:module');

const name = process.env.STAGEGRAPH_TEST_REPORT_PACKAGE;
const marker = `/node_modules/${name}/`;
const compile = Module.prototype._compile;
let reported = false;
Module.prototype._compile = function reportCompile(content, filename) {
  if (!reported && name && filename.includes(marker)) {
    reported = true;
    process.stderr.write(`module loaded: ${name}\n`);
  }
  return compile.call(this, content, filename);
};
