// A config of many blocks in one file, of about a given size, for the memory test and the validate
// bench: per index a custom tool, a toolset and an agent (half the text), then missions of 200
// chained tasks each using a toolset and a global agent. Loading it once took 25.5 s and 1.4 GB for
// 50 MB (each mission copied every global agent), later 21.8 s and 2.3 GB (the whole syntax tree
// held at once).

/**
 * `bytes` of HCL text (a little more: the last mission is written whole), `globals` of it (a
 * fraction) in tools, toolsets and agents and the rest in missions.
 */
export function hugeConfig(bytes: number, globals = 0.5): string {
  const out = ['variable "api_key" {\n  secret = true\n}\nmodel "claude" {\n  provider = "anthropic"\n  api_key  = vars.api_key\n}\n'];
  let size = out[0]!.length;
  let n = 0;
  for (; size < bytes * globals || n === 0; n++) {
    const text = `tool "lookup_${n}" {
  implements  = builtins.http.get
  description = "Lookup service ${n}"
  inputs = {
    query = string("What to look up", true)
  }
  url = "https://svc${n}.example.com/search?q=\${inputs.query}"
}
toolset "ts_${n}" {
  description = "Toolset ${n}"
  tools       = [builtins.http.get, tools.lookup_${n}]
}
agent "agent_${n}" {
  model       = models.claude.claude_sonnet_5_5
  personality = "Specialist number ${n}. Careful and concise."
  tools       = [toolsets.ts_${n}]
}
`;
    out.push(text);
    size += text.length;
  }
  for (let m = 0; size < bytes; m++) {
    const parts = [`mission "mission_${m}" {\n  commander {\n    model = models.claude.claude_sonnet_5_5\n  }\n  agents = [agents.agent_${m % n}]\n`];
    for (let t = 0; t < 200; t++) {
      parts.push(`  task "t_${t}" {\n    objective  = "Step ${t} of mission ${m}."\n    tools      = [toolsets.ts_${(t + m) % n}]\n${t > 0 ? `    depends_on = [tasks.t_${t - 1}]\n` : ''}  }\n`);
    }
    parts.push('}\n');
    const text = parts.join('');
    out.push(text);
    size += text.length;
  }
  return out.join('');
}

