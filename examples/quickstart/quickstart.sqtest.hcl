# Tests of the quickstart mission, run offline by `squadron test examples/quickstart`: each run
# replays the model's side from the cassette; the tools, the scheduler and the database run for real,
# and the assertions read what the run stored (squadron docs test).

run "writes_and_counts_three_facts" {
  mission = missions.quickstart
  inputs  = { topic = "tide pools" }
  replay  = "cassette.jsonl"

  assert {
    condition     = run.status == "completed"
    error_message = "the quickstart must complete"
  }
  assert {
    condition     = run.tasks.review.output.fact_count == 3
    error_message = "the review must count the three facts the research task wrote"
  }
  assert {
    condition     = contains(run.tools_called, "builtins.files.write") && contains(run.tools_called, "builtins.files.read")
    error_message = "the worker writes the facts and the reviewer reads them"
  }
  assert {
    condition     = run.tools_called[0] == "builtins.files.write" && length([for c in run.tool_calls : c if c.task == "research"]) >= 1
    error_message = "the research task's worker writes the facts first"
  }
  assert {
    condition     = run.cost_usd == 0
    error_message = "a replayed run costs nothing"
  }
}
