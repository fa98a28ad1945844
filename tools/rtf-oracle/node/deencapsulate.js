// De-encapsulate RTF files with rtf-stream-parser (the oracle of tools/rtf-oracle/record.py).
//   node deencapsulate.js record FILE...     one JSON line per file: {file, status, mode, text | error}
//   node deencapsulate.js bench ROUNDS FILE... one JSON line: {bytes, seconds, files, failed}
// Text is decoded with iconv-lite (the module's documented set-up); warnings are collected.
"use strict";
const fs = require("fs");
const iconvLite = require("iconv-lite");
const { deEncapsulateSync } = require("rtf-stream-parser");

function run(data, warnings) {
  return deEncapsulateSync(data, {
    decode: iconvLite.decode,
    warn: (message) => { if (!warnings.includes(String(message))) warnings.push(String(message)); },
  });
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "record") {
  for (const file of rest) {
    const data = fs.readFileSync(file);
    const warnings = [];
    let line;
    try {
      const result = run(data, warnings);
      line = { file, status: "ok", mode: result.mode, text: String(result.text), warnings };
    } catch (err) {
      line = { file, status: "error", error: String(err && err.message || err), warnings };
    }
    process.stdout.write(JSON.stringify(line) + "\n");
  }
} else if (mode === "bench") {
  const rounds = parseInt(rest[0], 10);
  const inputs = rest.slice(1).map((f) => fs.readFileSync(f));
  let bytes = 0, failed = 0;
  const start = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) {
    for (const data of inputs) {
      bytes += data.length;
      try { run(data, []); } catch (err) { failed++; }
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  process.stdout.write(JSON.stringify({ bytes, seconds, files: inputs.length, failed }) + "\n");
} else {
  process.stderr.write("usage: deencapsulate.js record FILE... | bench ROUNDS FILE...\n");
  process.exit(2);
}
