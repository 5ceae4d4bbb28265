#!/usr/bin/env python3
"""Parses .eml files with Python's email package and prints one JSON object per message, for
ezreport's delivery tests. Usage: check_messages.py FILE...

Each object: the decoded headers (from, to, to_address, subject, message_id, date,
content_type), the header names in order, the MIME structure, the attachments (filename,
content type, sha256), the text and HTML bodies, the longest line in bytes and whether every
line ends in CRLF, and any defects the parser found.
"""
import email
import email.policy
import email.utils
import hashlib
import json
import sys


def describe(path):
    raw = open(path, "rb").read()
    lines = raw.split(b"\n")
    crlf = all(l.endswith(b"\r") for l in lines[:-1]) and lines[-1] == b""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    out = {
        "path": path,
        "header_names": [k for k, _ in msg.raw_items()],
        "raw_headers": {k: v for k, v in msg.raw_items()},
        "from": str(msg["From"]),
        "to": str(msg["To"]),
        "to_addresses": [a for _, a in email.utils.getaddresses([str(msg["To"])])],
        "to_display_name": msg["To"].addresses[0].display_name if msg["To"] and msg["To"].addresses else None,
        "subject": str(msg["Subject"]),
        "message_id": str(msg["Message-ID"]),
        "date_parses": email.utils.parsedate_to_datetime(str(msg["Date"])) is not None,
        "content_type": msg.get_content_type(),
        "structure": [p.get_content_type() for p in msg.walk()],
        "attachments": [],
        "text": None,
        "html": None,
        "max_line_bytes": max(len(l.rstrip(b"\r")) for l in lines),
        "crlf": crlf,
        "defects": [str(d) for p in msg.walk() for d in p.defects],
    }
    for part in msg.iter_attachments():
        data = part.get_payload(decode=True)
        out["attachments"].append({"filename": part.get_filename(), "content_type": part.get_content_type(),
                                   "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)})
    body = msg.get_body(preferencelist=("plain",))
    out["text"] = body.get_content() if body else None
    body = msg.get_body(preferencelist=("html",))
    out["html"] = body.get_content() if body else None
    return out


if __name__ == "__main__":
    print(json.dumps([describe(p) for p in sys.argv[1:]], ensure_ascii=False))
