import EZTestSupport
import Foundation
import XCTest

/// What `deliver` does when the server refuses, hesitates or disappears: one bad recipient never
/// stops the others, 4xx is retried, a break after the data is `uncertain` and never resent
/// automatically, and a killed run never gives a duplicate.
final class DeliveryFailureTests: SMTPSinkTestCase {
    func testA550ForOneRecipientFailsThatUserOnlyAndExits2() throws {
        try sink.setRules(["reject_rcpt": ["user2@example.com": 550]])
        let run = try fixture.deliver(smtpArgs)
        XCTAssertEqual(run.status, 2, run.stderr)
        let eligible = try fixture.eligible()
        XCTAssertEqual(try sink.accepted().count, eligible.count - 1)
        let state = try fixture.state()
        XCTAssertEqual(state[2], "failed")
        XCTAssertEqual(state.values.filter { $0 == "sent" }.count, eligible.count - 1)
        let failed = try XCTUnwrap(fixture.journal().last { ($0["user_id"] as? Int) == 2 })
        XCTAssertEqual(failed["smtp_code"] as? Int, 550)
        XCTAssertEqual(failed["attempt"] as? Int, 1, "a 5xx is not retried")
        XCTAssertTrue((failed["smtp_text"] as? String)?.contains("mailbox unavailable") ?? false, "\(failed)")
        XCTAssertTrue(run.stderr.contains("failed 1, uncertain 0"), run.stderr)
        let keys: Set = ["user_id", "address", "message_id", "statement_sha256", "status", "reason", "smtp_code", "smtp_text", "attempt", "at"]
        for line in try fixture.journal() { XCTAssertEqual(Set(line.keys), keys, "every key on every line, null where it does not apply") }
        let skipped = try XCTUnwrap(fixture.journal().first { $0["status"] as? String == "skipped" })
        XCTAssertTrue(skipped["smtp_code"] is NSNull && skipped["attempt"] is NSNull, "\(skipped)")
    }

    /// A multi-line refusal is recorded whole: only its last line was kept, and relays put the
    /// explanation, or where to read it, on the first (outside delivery test).
    func testAMultiLineRefusalIsRecordedWhole() throws {
        try sink.setRules(["reject_rcpt": ["user2@example.com": "550-5.7.1 Blocked: see https://help.example/550\r\n550 5.7.1 Policy rejection"]])
        let run = try fixture.deliver(smtpArgs + ["--users", "2"])
        XCTAssertEqual(run.status, 2, run.stderr)
        let line = try XCTUnwrap(try fixture.journal().last { ($0["user_id"] as? Int) == 2 })
        XCTAssertEqual(line["smtp_code"] as? Int, 550)
        XCTAssertEqual(line["smtp_text"] as? String, "550-5.7.1 Blocked: see https://help.example/550 / 550 5.7.1 Policy rejection")
    }

    /// `--users` with an id the manifest does not hold used to do nothing and exit 0: an
    /// operator's typo looked like success. It is now one line and exit 1, nothing recorded.
    func testUsersNotInTheManifestAreNamedAndNothingIsRecorded() throws {
        let run = try fixture.deliver(smtpArgs + ["--users", "1,999999"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr, "ezreport: --users: no statement for user 999999 in this period's manifest\n")
        XCTAssertEqual(try fixture.journal().count, 0)
        XCTAssertEqual(try sink.received().count, 0)
    }

    /// A dry run after a real run describes the period as it stands: a user an earlier run left
    /// `failed` is counted and named, and the exit code is 2. It used to say 'failed 0', exit 0.
    func testADryRunAfterARealRunStillShowsTheFailedUser() throws {
        try sink.setRules(["reject_rcpt": ["user2@example.com": 550]])
        XCTAssertEqual(try fixture.deliver(smtpArgs).status, 2)
        let dry = try fixture.deliver(["--dry-run", fixture.folder.appendingPathComponent("eml").path])
        XCTAssertEqual(dry.status, 2, dry.stderr)
        XCTAssertTrue(dry.stderr.contains("user 2 failed earlier (--retry-failed sends it again)"), dry.stderr)
        XCTAssertTrue(dry.stderr.contains("failed 1, uncertain 0"), dry.stderr)
        XCTAssertEqual(try sink.accepted().count, try fixture.eligible().count - 1, "a dry run sends nothing")
    }

    /// A dry run after a real run counts the users already sent as `sent`, and names and counts the
    /// users a real re-run would skip again for the same reason (opted out). It used to say
    /// 'sent 0, skipped 0': the earlier lines were left out of its summary.
    func testADryRunAfterARealRunCountsTheSentAndNamesTheSkipped() throws {
        let real = try fixture.deliver(smtpArgs)
        XCTAssertEqual(real.status, 0, real.stderr)
        let state = try fixture.state()
        let sent = state.values.filter { $0 == "sent" }.count
        let skippedIds = state.filter { $0.value == "skipped" }.map(\.key).sorted()
        XCTAssertFalse(skippedIds.isEmpty, "the sample ledger has users who opted out")
        let dry = try fixture.deliver(["--dry-run", fixture.folder.appendingPathComponent("eml").path])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stderr.contains("sent \(sent), skipped \(skippedIds.count), failed 0, uncertain 0"), dry.stderr)
        XCTAssertTrue(dry.stderr.contains("dry run: 0 messages written"), dry.stderr)
        for id in skippedIds {
            XCTAssertTrue(dry.stderr.contains("user \(id) would be skipped: opted out (statement_email = 0)"), dry.stderr)
        }
    }

    func testRateCapsMessagesPerSecond() throws {
        let started = Date()
        let run = try fixture.deliver(["--smtp", sink.url(), "--smtp-insecure", "--rate", "4", "--users", "1,2,3,4,5"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try sink.accepted().count, 5)
        XCTAssertGreaterThanOrEqual(seconds, 1.0, "5 messages at 4 per second are spaced 0.25 s apart")
    }

    func testRetryFailedSendsOnlyTheFailures() throws {
        try sink.setRules(["reject_rcpt": ["user2@example.com": 550, "user3@example.com": 554]])
        XCTAssertEqual(try fixture.deliver(smtpArgs).status, 2)
        let before = try sink.accepted()
        try sink.setRules([:])
        let plain = try fixture.deliver(smtpArgs)
        XCTAssertEqual(plain.status, 2, "a plain re-run does not retry failures")
        XCTAssertEqual(try sink.accepted().count, before.count)
        let retry = try fixture.deliver(smtpArgs + ["--retry-failed"])
        XCTAssertEqual(retry.status, 0, retry.stderr)
        let after = try sink.accepted()
        XCTAssertEqual(after.dropFirst(before.count).flatMap(\.rcptTos).sorted(), ["user2@example.com", "user3@example.com"])
        XCTAssertEqual(try fixture.state()[2], "sent")
    }

    func testA451IsRetriedWithBackOffAndTheMessageIsSentOnce() throws {
        try sink.setRules(["tempfail_data_once": ["user2@example.com"]])
        let run = try fixture.deliver(smtpArgs + ["--users", "2,3"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let received = try sink.received().filter { $0.rcptTos == ["user2@example.com"] }
        XCTAssertEqual(received.map(\.outcome), ["tempfailed", "accepted"])
        let lines = try fixture.journal().filter { ($0["user_id"] as? Int) == 2 }
        XCTAssertEqual(lines.map { $0["status"] as? String }, ["sending", "failed", "sending", "sent"])
        XCTAssertEqual(lines.map { $0["attempt"] as? Int }, [1, 1, 2, 2])
        XCTAssertEqual(lines[1]["smtp_code"] as? Int, 451)
        XCTAssertEqual(try fixture.state()[2], "sent")
    }

    func testAConnectionDroppedBeforeTheDataIsRetriedAndSentOnce() throws {
        try sink.setRules(["drop_at_rcpt_once": ["user2@example.com"]])
        let run = try fixture.deliver(smtpArgs + ["--users", "1,2,3"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try sink.accepted().filter { $0.rcptTos == ["user2@example.com"] }.count, 1)
        let lines = try fixture.journal().filter { ($0["user_id"] as? Int) == 2 }
        // Dropped at RCPT TO, before the server said go ahead with the data: no `sending` line.
        XCTAssertEqual(lines.map { $0["status"] as? String }, ["failed", "sending", "sent"])
        XCTAssertTrue((lines[0]["reason"] as? String)?.contains("retrying in 1.0 s") ?? false, "\(lines[0])")
        XCTAssertGreaterThanOrEqual(sink.connections(), 2, "a new connection after the drop")
    }

    /// A relay not taking mail for a while (451 to every MAIL FROM) used to fail every user in
    /// turn, three attempts each, for minutes, and leave them `failed` until someone ran
    /// --retry-failed (outside delivery test). Three users deferred in a row stop the run; they and
    /// the users left are sent by the next plain run, each once.
    func testARelayNotTakingMailDefersThreeUsersStopsAndTheNextPlainRunSendsEveryone() throws {
        try sink.setRules(["tempfail_mail": "451 4.3.0 Temporary local problem"])
        let eligible = try fixture.eligible()
        let run = try fixture.deliver(smtpArgs)
        XCTAssertEqual(run.status, 2, run.stderr)
        let deferred = try fixture.journal().filter { ($0["reason"] as? String)?.hasSuffix("; deferred: the next run tries again") ?? false }
        XCTAssertEqual(deferred.count, 3, "three users in a row, then the run stops")
        for line in deferred {
            XCTAssertEqual(line["status"] as? String, "failed")
            XCTAssertEqual(line["attempt"] as? Int, 3)
            XCTAssertEqual(line["smtp_code"] as? Int, 451)
            XCTAssertTrue(run.stderr.contains("user \(line["user_id"] as? Int ?? 0) deferred (the next run tries again)"), run.stderr)
        }
        XCTAssertTrue(run.stderr.contains("not attempted \(eligible.count - 3)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("stopped early: 3 users in a row were deferred (the server is not taking mail now)"), run.stderr)
        XCTAssertFalse(run.stderr.contains("again): Failed sending data to the peer: MAIL failed: 451 (SMTP 451: 451 4.3.0 Temporary local "
                                           + "problem) (after 3 attempts); deferred"), "the problem line says deferred once")
        XCTAssertEqual(try sink.accepted().count, 0)

        // --retry-uncertain attempts only `uncertain` users: none here, so nothing is sent.
        try sink.setRules([:])
        let uncertainOnly = try fixture.deliver(smtpArgs + ["--retry-uncertain"])
        XCTAssertEqual(uncertainOnly.status, 2, uncertainOnly.stderr)
        XCTAssertEqual(try sink.accepted().count, 0, "deferred users are not uncertain ones")

        let next = try fixture.deliver(smtpArgs)
        XCTAssertEqual(next.status, 0, next.stderr)
        let accepted = try sink.accepted().flatMap(\.rcptTos)
        XCTAssertEqual(accepted.count, eligible.count)
        XCTAssertEqual(Set(accepted).count, accepted.count, "each once")
    }

    /// Full mailboxes are their recipients' (a 4xx to RCPT TO), not the server's: three in a row
    /// stopped every run, and nobody after those ids was ever sent (outside delivery re-test).
    /// They are deferred; everyone else is sent in the same run.
    func testThreeFullMailboxesInARowDeferThemAndTheRunGoesOn() throws {
        let full = "452 4.2.2 Mailbox full"
        try sink.setRules(["reject_rcpt": ["user2@example.com": full, "user3@example.com": full, "user4@example.com": full]])
        let eligible = try fixture.eligible()
        let run = try fixture.deliver(smtpArgs)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertFalse(run.stderr.contains("stopped early"), run.stderr)
        XCTAssertFalse(run.stderr.contains("not attempted"), run.stderr)
        XCTAssertEqual(try sink.accepted().count, eligible.count - 3)
        let state = try fixture.state()
        for id in [2, 3, 4] as [Int64] { XCTAssertEqual(state[id], "failed") }
        try sink.setRules([:])
        XCTAssertEqual(try fixture.deliver(smtpArgs).status, 0)
        let accepted = try sink.accepted().flatMap(\.rcptTos)
        XCTAssertEqual(accepted.count, eligible.count)
        XCTAssertEqual(Set(accepted).count, accepted.count, "each once")
    }

    /// A server silent after the data is waited for once, `--smtp-timeout`, not twice (libcurl's
    /// QUIT on the dead connection waited the timeout again: 240 s for 120, outside delivery
    /// test); and the line records no reply, not the 250 to RCPT TO that came before.
    func testAServerSilentAfterTheDataIsWaitedForOnceAndNoReplyIsRecorded() throws {
        try sink.setRules(["silent_after_data": ["user2@example.com"]])
        let started = Date()
        let run = try fixture.deliver(smtpArgs + ["--users", "2", "--smtp-timeout", "3"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(try fixture.state()[2], "uncertain")
        XCTAssertLessThan(seconds, 4.8, "one 3 s wait (~3.3 s in all), not two (~6.3 s)")
        let line = try XCTUnwrap(try fixture.journal().last { ($0["user_id"] as? Int) == 2 })
        XCTAssertTrue(line["smtp_code"] is NSNull && line["smtp_text"] is NSNull, "\(line)")
    }

    /// The same before the data: silent after RCPT TO, libcurl gave up on the reply and then sent
    /// QUIT and waited for its reply as long again (outside delivery re-test). One 4 s wait, the
    /// 1 s back-off, and the second attempt sends the message.
    func testAServerSilentAfterRCPTIsWaitedForOnce() throws {
        try sink.setRules(["rcpt_silent_once": ["user2@example.com"]])
        let started = Date()
        let run = try fixture.deliver(smtpArgs + ["--users", "2", "--smtp-timeout", "4"])
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try fixture.state()[2], "sent")
        XCTAssertLessThan(seconds, 7.5, "4 s, the 1 s back-off and the second attempt (~5.3 s); not 4 s twice (~9.3 s)")
        let first = try XCTUnwrap(try fixture.journal().first { ($0["user_id"] as? Int) == 2 })
        XCTAssertTrue(first["smtp_code"] is NSNull, "no reply came: \(first)")
    }

    func testAConnectionDroppedAfterDataIsUncertainAndNotResent() throws {
        try sink.setRules(["drop_after_data": ["user2@example.com"]])
        let run = try fixture.deliver(smtpArgs)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(try fixture.state()[2], "uncertain")
        XCTAssertTrue(run.stderr.contains("user 2 uncertain"), run.stderr)
        // No reply to the message came: the server's go-ahead for the data (354) is not recorded as one.
        let line = try XCTUnwrap(try fixture.journal().last { ($0["user_id"] as? Int) == 2 })
        XCTAssertTrue(line["smtp_code"] is NSNull && line["smtp_text"] is NSNull, "\(line)")
        // Nor is it quoted in the reason, as if the server had answered the message with it.
        let reason = try XCTUnwrap(line["reason"] as? String)
        XCTAssertTrue(reason.hasPrefix("the connection broke after the message was handed over: "), reason)
        XCTAssertFalse(reason.contains("354"), reason)
        XCTAssertFalse(run.stderr.contains("354"), run.stderr)
        XCTAssertEqual(try sink.accepted().count, try fixture.eligible().count - 1, "the others are still sent")
        try sink.setRules([:])
        let again = try fixture.deliver(smtpArgs)
        XCTAssertEqual(again.status, 2)
        XCTAssertEqual(try sink.received().filter { $0.rcptTos == ["user2@example.com"] }.count, 1, "uncertain is never resent automatically")
        XCTAssertEqual(try fixture.deliver(smtpArgs + ["--retry-failed"]).status, 2)
        XCTAssertEqual(try sink.received().filter { $0.rcptTos == ["user2@example.com"] }.count, 1)
        let decided = try fixture.deliver(smtpArgs + ["--retry-uncertain"])
        XCTAssertEqual(decided.status, 0, decided.stderr)
        XCTAssertEqual(try sink.accepted().filter { $0.rcptTos == ["user2@example.com"] }.count, 1)
    }

    /// `--smtp-timeout` bounds the wait for each reply: user 2's 554, 3 s late on a 1 s timeout,
    /// leaves user 2 `uncertain`, and user 3 is still sent, never taking user 2's late reply for
    /// its own (SMTPConnectionTests covers the whole-message timeout, where that happened).
    func testAReplyArrivingAfterTheTimeoutIsNeverTakenForTheNextUsersAnswer() throws {
        try sink.setRules(["late_reply_once": ["user2@example.com": [3, "554 5.7.1 rejected as spam"]]])
        let run = try fixture.deliver(smtpArgs + ["--smtp-timeout", "1", "--users", "2,3"])
        XCTAssertEqual(run.status, 2, run.stderr)
        let state = try fixture.state()
        XCTAssertEqual(state[2], "uncertain", "the data was out when the time ran out")
        XCTAssertEqual(state[3], "sent", run.stderr)
        XCTAssertEqual(try sink.accepted().filter { $0.rcptTos == ["user3@example.com"] }.count, 1)
        let third = try XCTUnwrap(fixture.journal().last { ($0["user_id"] as? Int) == 3 })
        XCTAssertEqual(third["smtp_code"] as? Int, 250, "\(third)")
    }

    /// A run killed while it waited to retry a 451 left the user's last line "failed …; retrying
    /// in 1.0 s", and plain re-runs (a systemd restart) took that as final: the statement was
    /// never sent without `--retry-failed`. A plain re-run now finishes the user's delivery.
    func testARunKilledDuringTheBackOffIsFinishedByAPlainRerun() throws {
        try sink.setRules(["tempfail_data_once": ["user2@example.com"]])
        let process = try fixture.start(smtpArgs + ["--users", "2,3"])
        let deadline = Date().addingTimeInterval(20)
        func retryPending() -> Bool {
            ((try? fixture.journal()) ?? []).last.map { ($0["reason"] as? String)?.contains("; retrying in ") ?? false } ?? false
        }
        while !retryPending(), Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertTrue(retryPending(), "the kill should land during the one-second back-off")
        XCTAssertEqual(try sink.accepted().filter { $0.rcptTos == ["user2@example.com"] }.count, 0)

        let rerun = try fixture.deliver(smtpArgs + ["--users", "2,3"])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try fixture.state()[2], "sent")
        XCTAssertEqual(try sink.accepted().filter { $0.rcptTos == ["user2@example.com"] }.count, 1)
    }

    /// A run killed before the server had said go ahead with the data cannot have sent the
    /// message: its user is not `uncertain` (the `sending` line was written before MAIL FROM, and
    /// an operator had to check a message that was never sent: outside delivery test). The next
    /// plain run sends it, once.
    func testARunKilledBeforeTheDataLeavesTheUserToBeSent() throws {
        try sink.setRules(["rcpt_delay": 2.0])
        let process = try fixture.start(smtpArgs + ["--users", "2"])
        let deadline = Date().addingTimeInterval(20)
        while sink.recipientsAsked() < 1, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(sink.recipientsAsked(), 1, "the kill should land while the server holds RCPT TO")
        XCTAssertFalse(try fixture.journal().contains { ($0["user_id"] as? Int) == 2 && $0["status"] as? String == "sending" })
        try sink.setRules([:])
        let rerun = try fixture.deliver(smtpArgs + ["--users", "2"])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try fixture.state()[2], "sent")
        XCTAssertEqual(try sink.accepted().filter { $0.rcptTos == ["user2@example.com"] }.count, 1)
    }

    func testARunKilledHalfWayThenRerunGivesNoDuplicateAtTheServer() throws {
        try sink.setRules(["data_delay": 0.5])
        let process = try fixture.start(smtpArgs)
        let deadline = Date().addingTimeInterval(20)
        while try sink.received().count < 3, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        // Kill as soon as the journal turns to 'sending' for the next message: the server then holds
        // its DATA for half a second. (A fixed pause missed that window on a loaded machine, and so
        // did a 'sending' line first seen near the end of its half second: the message was sent
        // before the kill landed. Waiting for the line to appear leaves nearly all of the window.)
        var sawAnotherStatus = false
        while Date() < deadline {
            if let last = try? fixture.journal().last {
                let sending = last["status"] as? String == "sending"
                if sending && sawAnotherStatus { break }
                if !sending { sawAnotherStatus = true }
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        let killedMidMessage = try fixture.journal().last.map { $0["status"] as? String == "sending" } ?? false
        let inFlight = try fixture.journal().last?["user_id"] as? Int
        XCTAssertTrue(killedMidMessage, "the kill should land while the server holds a message's DATA")
        try sink.setRules([:])
        let rerun = try fixture.deliver(smtpArgs)
        let received = try sink.received()
        let recipients = received.flatMap(\.rcptTos)
        XCTAssertEqual(Set(recipients).count, recipients.count, "a recipient got two messages: \(recipients)")
        let state = try fixture.state()
        let eligible = try fixture.eligible()
        for entry in eligible {
            XCTAssertTrue(["sent", "uncertain"].contains(state[entry.id] ?? ""), "user \(entry.id): \(state[entry.id] ?? "nothing")")
        }
        let uncertain = state.values.filter { $0 == "uncertain" }.count
        XCTAssertLessThanOrEqual(uncertain, 1, "only the message in flight at the kill can be uncertain")
        if let inFlight { XCTAssertEqual(state[Int64(inFlight)], "uncertain", "the user whose last line was 'sending'") }
        XCTAssertEqual(rerun.status, uncertain == 0 ? 0 : 2, rerun.stderr)
        XCTAssertEqual(state.values.filter { $0 == "sent" }.count + uncertain, eligible.count)
    }

    /// The journal cannot be written half-way through a run (a full disk): the run stops at once,
    /// says how many messages it sent and exits 2, not 1 ("could not run, nothing sent", which it
    /// used to say after sending). A re-run once there is room sends each of the rest once and
    /// none of the sent ones again; a message whose "sent" line was cut off is 'uncertain'.
    func testAJournalThatCannotBeWrittenMidRunStopsSaysWhatWasSentAndExits2() throws {
        let ids = try fixture.eligible().prefix(4).map(\.id)
        XCTAssertEqual(ids.count, 4)
        let users = ["--users", ids.map(String.init).joined(separator: ",")]
        // 1 KiB holds the first message's lines (a few hundred bytes each), not the fourth's.
        let run = try fixture.deliver(smtpArgs + users, fileSizeLimit: 1)
        let sentFirst = try sink.accepted().flatMap(\.rcptTos)
        XCTAssertTrue((1..<4).contains(sentFirst.count), "\(sentFirst)")
        XCTAssertEqual(run.status, 2, run.stderr)
        let n = sentFirst.count
        XCTAssertTrue(run.stderr.hasPrefix("ezreport: stopped after sending \(n) message\(n == 1 ? "" : "s") in this run: cannot write '"),
                      run.stderr)
        XCTAssertTrue(run.stderr.contains("delivery.jsonl': File too large"), run.stderr)
        // The summary is still the last line, as after every run that sent something.
        let summary = try XCTUnwrap(run.stderr.split(separator: "\n").last)
        XCTAssertTrue(summary.hasPrefix("sent "), run.stderr)
        XCTAssertTrue(summary.contains("not attempted \(4 - n)"), run.stderr)
        // The line the limit cut short is undone: every line is a whole record, so `jq` reads the
        // journal to its end (a cut line stopped the documented `jq` filters with a parse error).
        let raw = try Data(contentsOf: URL(fileURLWithPath: fixture.periodFolder + "/delivery.jsonl"))
        XCTAssertEqual(raw.last, 0x0A)
        for line in raw.split(separator: 0x0A) {
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line)), String(decoding: line, as: UTF8.self))
        }

        let rerun = try fixture.deliver(smtpArgs + users)
        let recipients = try sink.accepted().flatMap(\.rcptTos)
        XCTAssertEqual(Set(recipients).count, recipients.count, "a recipient got two messages: \(recipients)")
        XCTAssertEqual(recipients.count, 4, "\(recipients)")
        let state = try fixture.state()
        let uncertain = ids.filter { state[$0] == "uncertain" }
        XCTAssertLessThanOrEqual(uncertain.count, 1, "only the message whose 'sent' line was cut off: \(state)")
        for id in ids where !uncertain.contains(id) { XCTAssertEqual(state[id], "sent", "user \(id)") }
        XCTAssertEqual(rerun.status, uncertain.isEmpty ? 0 : 2, rerun.stderr)
    }

    /// Waits (up to 20 s) until the journal's last line says a message is being sent.
    private func waitUntilSending() {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, (try? fixture.journal().last?["status"] as? String) != "sending" {
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// SIGTERM (systemd, Kubernetes) while a message is being sent: that message is finished and
    /// recorded, the rest are left 'not attempted' (exit 2), nobody is left 'sending' or made
    /// 'uncertain', and the next run sends the rest, each once.
    func testSIGTERMFinishesTheMessageInFlightAndStops() throws {
        try sink.setRules(["data_delay": 0.5])
        let process = try fixture.start(smtpArgs)
        waitUntilSending()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 2, "users were left not attempted")
        XCTAssertNotEqual(try fixture.journal().last?["status"] as? String, "sending", "the message in flight was recorded")
        let stopped = try fixture.state()
        XCTAssertFalse(stopped.values.contains("uncertain"), "\(stopped)")
        XCTAssertLessThan(stopped.values.filter { $0 == "sent" }.count, try fixture.eligible().count, "the run stopped early")
        try sink.setRules([:])
        let rerun = try fixture.deliver(smtpArgs)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let recipients = try sink.accepted().flatMap(\.rcptTos)
        XCTAssertEqual(Set(recipients).count, recipients.count, "a recipient got two messages: \(recipients)")
        XCTAssertEqual(recipients.count, try fixture.eligible().count)
    }

    /// A second signal stops the process at once, as the docs and the first signal's message
    /// say: it used to wait for the message in flight (4 s with a slow server, 120 s with one
    /// that never answers). The message in flight may then be 'uncertain'; nothing is sent twice.
    func testASecondSignalStopsTheProcessAtOnce() throws {
        try sink.setRules(["data_delay": 8])
        let process = try fixture.start(smtpArgs)
        waitUntilSending()
        kill(process.processIdentifier, SIGTERM)
        Thread.sleep(forTimeInterval: 0.3)
        let second = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(second), 3, "the second signal waited for the slow server")
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGTERM)
    }

    func testAnUnreachableServerExits1AndRecordsNothing() throws {
        let port = sink.port
        sink.stop()
        let run = try fixture.deliver(["--smtp", "smtp://127.0.0.1:\(port)", "--smtp-insecure"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ezreport: SMTP server smtp://127.0.0.1:\(port) cannot be used, nothing was sent"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
    }

    func testALibcurlThatCannotBeLoadedIsAOneLineErrorAndNothingIsSent() throws {
        // deliver loads libcurl when it first sends (it is not linked): a broken one found first
        // on the library path is named, and the run stops before any message.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-nocurl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a shared object".utf8).write(to: folder.appendingPathComponent("libcurl.so.4"))
        let run = try fixture.deliver(["--smtp", "smtp://127.0.0.1:\(sink.port)", "--smtp-insecure"],
                                      environment: ["LD_LIBRARY_PATH": folder.path])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ezreport: SMTP server smtp://127.0.0.1:\(sink.port) cannot be used, nothing was sent"), run.stderr)
        XCTAssertTrue(run.stderr.contains("libcurl cannot be loaded: ") && run.stderr.contains(folder.path + "/libcurl.so.4"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(try sink.received().count, 0)
        XCTAssertEqual(sink.connections(), 0, "libcurl never connected")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
    }

    /// The refusal says what to do (an outside tester read only libcurl's words and the server's
    /// `250 HELP`): an smtps:// URL, or --smtp-insecure for a test server.
    func testAServerWithoutSTARTTLSIsRefusedUnlessInsecure() throws {
        let run = try fixture.deliver(["--smtp", sink.url(), "--rate", "0"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("nothing was sent"), run.stderr)
        XCTAssertTrue(run.stderr.contains("it offers no STARTTLS: use an smtps:// URL if it speaks TLS from the start, "
                                          + "or --smtp-insecure to send in plain text (a test server only, and without a login)"), run.stderr)
        XCTAssertFalse(run.stderr.contains("250 HELP") || run.stderr.contains(".;"), run.stderr)
        XCTAssertEqual(try sink.received().count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
    }

    /// A delivery that overlapped a `monthly` re-rendering the period mailed the old statements as
    /// they were replaced, then the new ones: two e-mails each (outside operations test). While a
    /// run holds the period's `.lock`, `deliver` sends nothing and exits 1; once it is let go, it sends.
    func testWhileARunHoldsThePeriodDeliverSendsNothingAndExits1() throws {
        let fd = open(fixture.periodFolder + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0, "the test holds the lock as a monthly run would")
        _ = "\(getpid()) monthly\n".withCString { pwrite(fd, $0, strlen($0), 0) }
        // A dry run too: during a real delivery it read the message in flight as interrupted, `uncertain`.
        for args in [smtpArgs, ["--dry-run", fixture.folder.appendingPathComponent("eml").path]] {
            let refused = try fixture.deliver(args)
            XCTAssertEqual(refused.status, 1, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("another run (monthly, pid \(getpid())) holds '\(fixture.periodFolder)': nothing was sent"), refused.stderr)
        }
        XCTAssertEqual(try sink.received().count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
        flock(fd, LOCK_UN)
        close(fd)
        let sent = try fixture.deliver(smtpArgs)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertGreaterThan(try sink.received().count, 0)
    }

    /// A `monthly` re-run killed half-way (an OOM kill, a full disk) leaves its journal, some
    /// statements already its own and `manifest.json` still the last complete run's: `deliver`
    /// mailed from that manifest (the old statements, a hash mismatch for the new ones), then the
    /// finished re-run's statements again (outside faults test). It now sends nothing, real run or
    /// dry, and says to re-run `monthly`; once that has finished, it sends.
    func testAfterAKilledMonthlyReRunDeliverSendsNothingUntilTheRunHasFinished() throws {
        let work = fixture.folder.appendingPathComponent("killed").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let rerun = try CLI.start(["monthly", "--db", fixture.ledgerPath, "--period", "2026-10", "--as-of", "2026-11-01",
                                   "--out", fixture.reports, "--formats", "pdf", "--force", "--jobs", "1", "--quiet"],
                                  stdoutFile: work + "/out", stderrFile: work + "/err")
        let journal = fixture.periodFolder + "/.journal.jsonl"
        let deadline = Date().addingTimeInterval(60)
        func journalHasAUser() -> Bool { (try? Data(contentsOf: URL(fileURLWithPath: journal)))?.contains(UInt8(ascii: "\n")) ?? false }
        while rerun.isRunning, Date() < deadline, !journalHasAUser() { usleep(1_000) }
        XCTAssertTrue(rerun.isRunning, "the re-run is stopped half-way")
        kill(rerun.processIdentifier, SIGKILL)
        rerun.waitUntilExit()
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal))
        for args in [smtpArgs, ["--dry-run", work + "/eml"]] {
            let refused = try fixture.deliver(args)
            XCTAssertEqual(refused.status, 1, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("has not finished (its '.journal.jsonl' is there") && refused.stderr.contains("re-run 'ezreport monthly'"),
                          refused.stderr)
        }
        XCTAssertEqual(try sink.received().count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
        try fixture.monthly()
        let sent = try fixture.deliver(smtpArgs)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertEqual(try sink.accepted().count, try fixture.eligible().count)
    }

    func testNoManifestExits1() throws {
        try FileManager.default.removeItem(atPath: fixture.periodFolder + "/manifest.json")
        let run = try fixture.deliver(smtpArgs)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("no manifest at") && run.stderr.contains("ezreport monthly"), run.stderr)
    }

    func testBadArgumentsExit64() throws {
        XCTAssertEqual(try fixture.deliver(["--smtp", sink.url(), "--from", "not an address"]).status, 64)
        XCTAssertEqual(try fixture.deliver(["--smtp", "http://127.0.0.1:25"]).status, 64)
        XCTAssertEqual(try fixture.deliver([]).status, 64, "--smtp is required without --dry-run")
        XCTAssertEqual(try fixture.deliver(smtpArgs + ["--attach", "pdf,csv"]).status, 64)
        XCTAssertEqual(try fixture.deliver(smtpArgs + ["--rate", "-1"]).status, 64)
        XCTAssertEqual(try sink.received().count, 0)
    }

    func testABadSMTPPortIsABadArgumentInOneLine() throws {
        for url in ["smtp://127.0.0.1:99999", "smtp://127.0.0.1:0", "smtp://127.0.0.1:", "smtp://127.0.0.1:25x", "smtps://[::1]:70000"] {
            let run = try fixture.deliver(["--smtp", url, "--smtp-insecure"])
            XCTAssertEqual(run.status, 64, "\(url): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("ezreport: --smtp port '") && run.stderr.contains("is not a number from 1 to 65535"), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        }
        XCTAssertEqual(sink.connections(), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
    }
}
