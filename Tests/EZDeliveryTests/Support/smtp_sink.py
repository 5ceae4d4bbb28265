#!/usr/bin/env python3
"""A real SMTP server (aiosmtpd) for ezreport's delivery tests, on 127.0.0.1 and a free port.

Usage: smtp_sink.py --out DIR [--rules FILE] [--starttls CERT KEY] [--smtps CERT KEY] [--auth USER:PASSWORD] [--discard]

Prints "PORT <n>" on stdout once listening. Every message that reaches the end of DATA is saved
as DIR/<seq>.eml and indexed in DIR/index.jsonl ({"seq", "file", "mail_from", "rcpt_tos",
"outcome": accepted|tempfailed|dropped}); every connection is one {"event": "connect"} line in
DIR/events.jsonl. The rules file (JSON, re-read for every command so a test can change it) says:
  "reject_rcpt":  {"addr": 550}       reply to RCPT TO with that code (or that whole reply, when a string)
  "tempfail_data_once": ["addr"]      451 after the first DATA for addr, accept later ones
  "drop_after_data": ["addr"]         read the message, then close the connection without a reply
  "drop_at_rcpt_once": ["addr"]       close the connection at the first RCPT TO for addr (before any data)
  "data_delay": seconds               wait before replying to DATA (to kill the client mid-run)
  "late_reply_once": {"addr": [seconds, "554 reply"]}  the first DATA for addr: wait, then that reply
  "tempfail_mail": "451 reply"        reply to every MAIL FROM with that (a relay not taking mail now)
  "rcpt_delay": seconds               wait before replying to RCPT TO (every RCPT is a line in DIR/rcpt.jsonl)
  "silent_after_data": ["addr"]       read the message for addr, then never reply (until the client goes)
  "rcpt_silent_once": ["addr"]        never reply to the first RCPT TO for addr
Every AUTH attempt is one {"event": "auth"} line in DIR/auth.jsonl.
"""
import argparse
import asyncio
import json
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult


class Sink:
    def __init__(self, out, rules_path):
        self.out = out
        self.rules_path = rules_path
        self.seq = 0
        self.tempfailed = set()
        self.discard = False

    def rules(self):
        if not self.rules_path or not os.path.exists(self.rules_path):
            return {}
        with open(self.rules_path) as f:
            return json.load(f)

    def log(self, name, obj):
        with open(os.path.join(self.out, name), "a") as f:
            f.write(json.dumps(obj, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def save(self, envelope, outcome):
        self.seq += 1
        if self.discard:
            self.log("index.jsonl", {"seq": self.seq, "bytes": len(envelope.original_content), "outcome": outcome})
            return
        name = "%05d.eml" % self.seq
        tmp = os.path.join(self.out, "." + name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(envelope.original_content)
        os.rename(tmp, os.path.join(self.out, name))
        self.log("index.jsonl", {"seq": self.seq, "file": name, "mail_from": envelope.mail_from,
                                 "rcpt_tos": envelope.rcpt_tos, "outcome": outcome})

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        reply = self.rules().get("tempfail_mail")
        if reply:
            return reply
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        self.log("rcpt.jsonl", {"event": "rcpt", "address": address})
        delay = self.rules().get("rcpt_delay", 0)
        if delay:
            await asyncio.sleep(delay)
        if address in self.rules().get("rcpt_silent_once", []) and ("silent", address) not in self.tempfailed:
            self.tempfailed.add(("silent", address))
            await asyncio.sleep(3600)
        if address in self.rules().get("drop_at_rcpt_once", []) and ("drop", address) not in self.tempfailed:
            self.tempfailed.add(("drop", address))
            server.transport.abort()
            return "250 OK"
        code = self.rules().get("reject_rcpt", {}).get(address)
        if isinstance(code, str):   # a whole reply, e.g. a multi-line one
            return code
        if code:
            return "%d 5.1.1 <%s>: mailbox unavailable" % (code, address)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        rules = self.rules()
        rcpt = envelope.rcpt_tos[0] if envelope.rcpt_tos else ""
        delay = rules.get("data_delay", 0)
        if delay:
            await asyncio.sleep(delay)
        late = rules.get("late_reply_once", {}).get(rcpt)
        if late and ("late", rcpt) not in self.tempfailed:
            self.tempfailed.add(("late", rcpt))
            await asyncio.sleep(late[0])
            self.save(envelope, "late")
            return late[1]
        if rcpt in rules.get("silent_after_data", []):
            self.save(envelope, "unanswered")
            await asyncio.sleep(3600)
            return "250 OK"
        if rcpt in rules.get("drop_after_data", []):
            self.save(envelope, "dropped")
            server.transport.abort()
            return "250 OK"
        if rcpt in rules.get("tempfail_data_once", []) and rcpt not in self.tempfailed:
            self.tempfailed.add(rcpt)
            self.save(envelope, "tempfailed")
            return "451 4.3.0 try again later"
        self.save(envelope, "accepted")
        return "250 2.0.0 OK queued as %05d" % self.seq


class LoggingSMTP(SMTP):
    sink = None

    def connection_made(self, transport):
        # STARTTLS calls this again for the same connection; count TCP connections only.
        if not getattr(self, "_counted", False):
            self._counted = True
            LoggingSMTP.sink.log("events.jsonl", {"event": "connect"})
        super().connection_made(transport)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--rules")
    p.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"))
    p.add_argument("--smtps", nargs=2, metavar=("CERT", "KEY"))
    p.add_argument("--auth")
    p.add_argument("--discard", action="store_true", help="count messages without saving them (benchmarks)")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    sink = Sink(a.out, a.rules)
    sink.discard = a.discard
    LoggingSMTP.sink = sink

    def context(pair):
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(pair[0], pair[1])
        return ctx

    kwargs = {"hostname": "sink.test", "timeout": 30}
    if a.starttls:
        kwargs["tls_context"] = context(a.starttls)
        kwargs["require_starttls"] = True
    if a.auth:
        user, password = a.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            sink.log("auth.jsonl", {"event": "auth"})
            ok = auth_data.login.decode() == user and auth_data.password.decode() == password
            return AuthResult(success=ok, handled=False)   # handled=False: aiosmtpd replies 535

        kwargs["authenticator"] = authenticator
        kwargs["auth_required"] = True
        kwargs["auth_require_tls"] = bool(a.starttls or a.smtps)

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(loop.create_server(
        lambda: LoggingSMTP(sink, loop=loop, **kwargs), host="127.0.0.1", port=0,
        ssl=context(a.smtps) if a.smtps else None))
    port = server.sockets[0].getsockname()[1]
    print("PORT %d" % port, flush=True)
    try:
        loop.run_forever()
    finally:
        server.close()


if __name__ == "__main__":
    sys.exit(main())
