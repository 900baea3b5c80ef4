// Parse-speed figures: our HCL parser vs @cdktf/hcl2json on a generated ~5,000-line Squadron-like
// configuration. Prints figures only; nothing here is asserted.
//
//   npm run build && node bench/hcl-parse.mjs [runs]
//
// Ours: median of N warm runs of parseHcl (and of parseHcl + toJsonProjection, the like-for-like
// comparison with hcl2json, which also produces JSON). hcl2json: its first call including module
// load and WASM start-up, then the median of N warm runs. Both parse the same text.

import { performance } from 'node:perf_hooks';

const runs = Number(process.argv[2] ?? 30);

/** A deterministic Squadron-like configuration of roughly `targetLines` lines. */
function squadronConfig(targetLines) {
  const parts = [
    `# Generated for bench/hcl-parse.mjs\nvariable "anthropic_api_key" {\n  secret = true\n}\n\nmodel "anthropic" {\n  provider = "anthropic"\n  api_key  = vars.anthropic_api_key\n}\n`,
  ];
  let lines = 10;
  for (let i = 0; lines < targetLines; i++) {
    const chunk = `
# ── agent ${i} ──────────────────────────────────────────────
agent "researcher_${i}" {
  model       = models.anthropic.claude_sonnet_4
  personality = "Thorough, cites sources, agent #${i}"
  role        = <<-EOT
    You are research agent ${i}. Find facts about \${inputs.topic}.
    %{ if inputs.depth > 2 ~}
    Go deep: follow at least \${inputs.depth} links per source.
    %{ endif ~}
    Never invent citations.
    EOT
  tools = [builtins.http.get, builtins.web.search, toolsets.browsing, plugins.playwright.all]
  settings { temperature = 0.${i % 10} }
}

tool "lookup_${i}" {
  description = "Look up record ${i} in the registry"
  command     = ["./bin/lookup", "--id", "${i}", "--format=json"]
  inputs = {
    id      = { type = "string", required = true }
    verbose = { type = "bool", default = false }
    limit   = { type = "number", default = ${i % 50} }
  }
}

mission "pipeline_${i}" {
  commander { model = models.anthropic.claude_sonnet_4 }
  agents = [agents.researcher_${i}]
  input "topic" {
    type    = "string"
    default = "topic-${i}"
  }
  task "gather" {
    objective = "Collect sources about \${inputs.topic} (run ${i})"
    tools     = [tools.lookup_${i}]
  }
  task "summarize" {
    depends_on = [tasks.gather]
    objective  = "Summarize: %{ for s in tasks.gather.output.sources ~}\${s.title}; %{ endfor ~}"
    output {
      field "summary" { type = "string" }
      field "score" {
        type    = "number"
        default = max(1, ${i % 7}) * 10 / 2
      }
    }
    router {
      route {
        target    = tasks.gather
        condition = length(tasks.gather.output.sources) < 3 && !var.skip
      }
    }
  }
  budget = { tokens = ${1000 + i}, dollars = ${(i % 9) + 0.5} }
  tags   = { for k, v in { a = 1, b = 2 } : upper(k) => v * ${i} }
}
`;
    parts.push(chunk);
    lines += chunk.split('\n').length - 1;
  }
  return parts.join('');
}

function min(xs) {
  return Math.min(...xs);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main() {
  const text = squadronConfig(5000);
  const lineCount = text.split('\n').length;

  const { parseHcl, toJsonProjection } = await import('../dist/config/hcl/index.js');
  const check = parseHcl(text, 'bench.hcl');
  if (check.diagnostics.length > 0) throw new Error(`bench config does not parse: ${check.diagnostics[0].message}`);

  // hcl2json first call: module load + WASM instantiation + first parse.
  const t0 = performance.now();
  const { parse } = await import('@cdktf/hcl2json');
  const theirFirstResult = await parse('bench.hcl', text);
  const theirFirst = performance.now() - t0;

  // Warm both up, then interleave the runs so that load from other processes on the machine
  // affects both sides alike.
  for (let i = 0; i < 5; i++) parseHcl(text, 'bench.hcl');
  for (let i = 0; i < 3; i++) await parse('bench.hcl', text);
  const ours = [];
  const oursJson = [];
  const theirs = [];
  let projection;
  for (let i = 0; i < runs; i++) {
    let s = performance.now();
    parseHcl(text, 'bench.hcl');
    ours.push(performance.now() - s);
    s = performance.now();
    projection = toJsonProjection(parseHcl(text, 'bench.hcl').file);
    oursJson.push(performance.now() - s);
    s = performance.now();
    await parse('bench.hcl', text);
    theirs.push(performance.now() - s);
  }

  const same = JSON.stringify(projection) === JSON.stringify(theirFirstResult) || (await import('node:util')).isDeepStrictEqual(projection, theirFirstResult);
  const fmt = (ms) => `${ms.toFixed(2).padStart(9)} ms`;
  console.log(`input: ${lineCount} lines, ${(text.length / 1024).toFixed(0)} KiB; ${runs} warm runs each (median)`);
  console.log(`ours     parseHcl                      ${fmt(median(ours))}   (min ${min(ours).toFixed(2)} ms)`);
  console.log(`ours     parseHcl + toJsonProjection   ${fmt(median(oursJson))}`);
  console.log(`hcl2json parse (warm)                  ${fmt(median(theirs))}   (min ${min(theirs).toFixed(2)} ms)`);
  console.log(`hcl2json first call (load + WASM init) ${fmt(theirFirst)}`);
  console.log(`ratio    hcl2json warm / ours parse    ${(median(theirs) / median(ours)).toFixed(1).padStart(9)} x`);
  console.log(`ratio    hcl2json warm / ours + JSON   ${(median(theirs) / median(oursJson)).toFixed(1).padStart(9)} x`);
  console.log(`ratio    hcl2json first / ours parse   ${(theirFirst / median(ours)).toFixed(1).padStart(9)} x`);
  console.log(`projections equal: ${same}`);
  // hcl2json's Go runtime keeps the event loop alive.
  process.exit(0);
}

await main();
