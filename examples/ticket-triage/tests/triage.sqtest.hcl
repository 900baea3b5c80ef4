# Tests of the ticket triage mission, run offline by `squadron test examples/ticket-triage`: the
# model's side replays from the example's cassette; the fan-out over the 22 tickets, the tools and
# the database run for real (squadron docs test).

run "triages_every_ticket_and_reports" {
  mission = missions.ticket_triage
  replay  = "../cassette.jsonl"

  assert {
    condition     = run.status == "completed" && length(run.tasks.triage.items) == 22
    error_message = "every ticket of the queue must be triaged"
  }
  assert {
    condition     = length([for i in run.tasks.triage.items : i if i.status == "completed" && contains(["high", "normal", "low"], i.output.priority)]) == 22
    error_message = "each ticket gets a priority of high, normal or low"
  }
  assert {
    condition     = run.tasks.triage.items[3].output.team == "platform"
    error_message = "ticket 1004 (the API returns 500 errors) belongs to the platform team"
  }
  assert {
    condition     = run.tasks.report.output.high_priority == 7 && run.tasks.report.output.busiest_team == "billing"
    error_message = "the report counts 7 high-priority tickets and names billing the busiest team"
  }
}
