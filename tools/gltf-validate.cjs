// Runs the Khronos glTF validator on each file named on the command line and prints one JSON line
// per file: {"file", "errors", "warnings", "infos", "messages": [...]}. The validator is the npm
// package `gltf-validator`, installed by `.ci/run` under target/tools (or named by GLTF_VALIDATOR).
// Exit status: 0 when every file has no error and no warning, 1 otherwise, 2 without the validator.
'use strict';
const fs = require('fs');
const path = require('path');

const where = process.env.GLTF_VALIDATOR ||
    path.join(__dirname, '..', 'target', 'tools', 'node_modules', 'gltf-validator');
let validator;
try {
    validator = require(where);
} catch (e) {
    console.error(`gltf-validator not found at ${where}: ${e.message}`);
    process.exit(2);
}

async function main() {
    let clean = true;
    for (const file of process.argv.slice(2)) {
        const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
            uri: path.basename(file),
            maxIssues: 50,
        });
        const issues = report.issues;
        const messages = issues.messages.map((m) => ({
            code: m.code, severity: m.severity, pointer: m.pointer, message: m.message,
        }));
        console.log(JSON.stringify({
            file: path.basename(file),
            errors: issues.numErrors,
            warnings: issues.numWarnings,
            infos: issues.numInfos,
            hints: issues.numHints,
            messages,
        }));
        clean = clean && issues.numErrors === 0 && issues.numWarnings === 0;
    }
    process.exit(clean ? 0 : 1);
}

main().catch((e) => {
    console.error(String(e));
    process.exit(1);
});
