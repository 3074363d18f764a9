#!/usr/bin/env python3
"""An ACP agent for the sandbox-acp tests, speaking newline-delimited JSON-RPC 2.0 on stdio.

It does what each prompt's text (a JSON object) says, toward the client it was given:
  {"call": METHOD, "params": {...}}  send that client request, wait for its response
  {"raw": TEXT}                      write TEXT as a line, wait for the reply the bridge sends
  {"capabilities": true}             report the clientCapabilities initialize offered
  {"write": PATH}                    try to create PATH itself; reports "written" or the error
  {"exit": N}                        exit with status N at once
and answers the prompt with {stopReason: "end_turn", _meta: {response, received}}, where
`received` counts every line that reached the agent.
"""
import json
import sys

received = 0
capabilities = None
next_id = 1
pending_replies = []


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read():
    global received
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    received += 1
    return json.loads(line)


def wait_for(predicate):
    """Reads until a message satisfies predicate; others are queued for the main loop."""
    while True:
        message = read()
        if predicate(message):
            return message
        pending_replies.append(message)


def handle(message):
    global capabilities, next_id
    method = message.get("method")
    mid = message.get("id")
    if method == "initialize":
        capabilities = message.get("params", {}).get("clientCapabilities")
        send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": 1, "agentCapabilities": {}, "authMethods": []}})
    elif method == "session/new":
        send({"jsonrpc": "2.0", "id": mid, "result": {"sessionId": "sess-1"}})
    elif method == "session/prompt":
        text = message["params"]["prompt"][0]["text"]
        order = json.loads(text)
        if "exit" in order:
            sys.exit(order["exit"])
        if "write" in order:
            try:
                with open(order["write"], "w") as f:
                    f.write("agent was here\n")
                response = "written"
            except OSError as error:
                response = str(error)
        elif "capabilities" in order:
            response = capabilities
        elif "raw" in order:
            sys.stdout.write(order["raw"] + "\n")
            sys.stdout.flush()
            response = wait_for(lambda m: "method" not in m)
        else:
            call_id = "agent-%d" % next_id
            next_id += 1
            send({"jsonrpc": "2.0", "id": call_id, "method": order["call"], "params": order["params"]})
            response = wait_for(lambda m: m.get("id") == call_id and "method" not in m)
        send({"jsonrpc": "2.0", "id": mid,
              "result": {"stopReason": "end_turn", "_meta": {"response": response, "received": received}}})
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "unknown method " + str(method)}})


while True:
    if pending_replies:
        handle(pending_replies.pop(0))
    else:
        handle(read())
