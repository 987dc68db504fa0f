#!/usr/bin/env python3
"""Drive an ACP agent over stdio with one prompt, without ahptui: a check
that the agent (e.g. the Claude Code adapter) works against the mock
Anthropic API on its own. Prints the agent's updates, answers a permission
request with allow_once or reject_once, exits 0 when the prompt ends.

usage: acp-drive.py CWD PROMPT allow|deny -- AGENT_COMMAND...
The agent inherits the environment (ANTHROPIC_BASE_URL etc.).
"""
import json, os, signal, subprocess, sys, threading

def main():
    cwd, prompt, choice = sys.argv[1], sys.argv[2], sys.argv[3]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
    timer = threading.Timer(120, lambda: os.killpg(p.pid, signal.SIGKILL))
    timer.start()
    def send(o):
        p.stdin.write((json.dumps(o) + "\n").encode()); p.stdin.flush()
    rc = 1
    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1,
              "clientCapabilities": {"fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False}}})
        for line in p.stdout:
            m = json.loads(line)
            meth = m.get("method")
            if meth == "session/update":
                u = m["params"]["update"]
                k = u["sessionUpdate"]
                if k in ("agent_message_chunk", "agent_thought_chunk"):
                    print(k, json.dumps(u["content"].get("text", "")))
                elif k in ("tool_call", "tool_call_update"):
                    print(k, u.get("status", ""), json.dumps(u.get("title", "")))
                continue
            if meth == "session/request_permission":
                opts = m["params"]["options"]
                print("permission", json.dumps([[o["kind"], o["name"]] for o in opts]))
                want = "allow_once" if choice == "allow" else "reject_once"
                oid = [o["optionId"] for o in opts if o["kind"] == want][0]
                send({"jsonrpc": "2.0", "id": m["id"], "result": {"outcome": {"outcome": "selected", "optionId": oid}}})
                continue
            if meth is not None:
                if "id" in m:
                    send({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "not supported"}})
                continue
            if "error" in m:
                print("error", json.dumps(m["error"])); break
            if m.get("id") == 1:
                send({"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": {"cwd": cwd, "mcpServers": []}})
            elif m.get("id") == 2:
                send({"jsonrpc": "2.0", "id": 3, "method": "session/prompt", "params": {
                    "sessionId": m["result"]["sessionId"], "prompt": [{"type": "text", "text": prompt}]}})
            elif m.get("id") == 3:
                print("stopReason", m["result"]["stopReason"]); rc = 0; break
    finally:
        timer.cancel()
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return rc

if __name__ == "__main__":
    sys.exit(main())
