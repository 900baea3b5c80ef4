// Install-time check (package.json "preinstall"): on a Node older than the floor of "engines", says so
// in one line and stops the install, instead of a wall of engine warnings and a crash later. Written
// in plain CommonJS and old syntax so that any Node can run it. The CLI checks the same at start-up
// (cli/nodeVersion.ts). SQUADRON_SKIP_NODE_CHECK=1 lets the install go on anyway.
'use strict';
var engines = require('../package.json').engines.node;
var floor = /(\d+)\.(\d+)\.(\d+)/.exec(engines);
var have = process.versions.node.split('.').map(Number);
if (floor && process.env.SQUADRON_SKIP_NODE_CHECK !== '1') {
  var major = Number(floor[1]);
  var minor = Number(floor[2]);
  if (have[0] < major || (have[0] === major && have[1] < minor)) {
    process.stderr.write(
      'squadron: needs Node.js ' + floor[1] + '.' + floor[2] + '.' + floor[3] + ' or later (' + engines +
        '); this is Node.js ' + process.versions.node + '. Install a newer Node, or in a clone run the command ' +
        'under scripts/with-node.sh (see "Requirements" in the README).\n'
    );
    process.exit(1);
  }
}
