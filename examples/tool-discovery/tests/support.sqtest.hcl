# Tests of the tool-discovery mission, run offline by `squadron test examples/tool-discovery`: the
# model's side replays from the example's cassette, while the shop's MCP server (shop-server.mjs)
# really starts and answers (squadron docs test).

run "refunds_then_notes_and_blocks_nobody" {
  mission = missions.support
  replay  = "../cassette.jsonl"

  assert {
    condition     = run.status == "completed"
    error_message = "the mission must complete"
  }
  assert {
    condition     = run.tools_called == ["mcp.shop.refund_order", "mcp.shop.add_customer_note"]
    error_message = "the worker refunds the order, then notes it on the customer record, and calls no other shop tool"
  }
  assert {
    condition     = !contains(run.tools_called, "mcp.shop.block_customer") && !contains(run.tools_called, "mcp.shop.cancel_order")
    error_message = "the worker must never block the customer or cancel the order"
  }
  assert {
    condition     = run.tool_calls[0].input.order_id == "1042" && length(regexall("Refunded \\$89\\.00", run.tool_calls[0].result)) == 1
    error_message = "the refund is for order 1042, in full ($89.00)"
  }
  assert {
    condition     = length(regexall("rf_1042_1", run.tasks.make_it_right.summary)) == 1
    error_message = "the summary names the refund"
  }
}

run "a_mocked_refund_is_never_made" {
  mission = missions.support
  replay  = "../cassette.jsonl"

  # The shop is not asked for the refund: the test answers, and the ledger marks the call as mocked.
  mock_tool "mcp.shop.refund_order" {
    result = "Refunded $89.00 to the card ending 4242 for order 1042 (refund rf_1042_1)."
  }

  assert {
    condition     = run.tool_calls[0].mocked && !run.tool_calls[1].mocked
    error_message = "the refund is answered by the test, the note by the shop"
  }
}
