import CCurl

/// Why a message was not (or may not have been) accepted by the SMTP server: libcurl's code
/// and message, and the server's reply when there was one.
package struct SMTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libcurl's result code (`CURLcode`) and its text (`curl_easy_strerror`), with libcurl's detail.
    package var curlCode: Int
    package var curlMessage: String
    /// The server's last reply code (0 when there was none) and its text.
    package var smtpCode: Int
    package var smtpText: String?
    /// Whether the whole message had been handed to libcurl for `DATA` when it failed: if the
    /// server gave no final reply, the message may or may not have been accepted.
    package var dataHandedOver: Bool

    /// 530, "authentication required": the server refuses every message of a run that did not
    /// log in; nothing about the recipient.
    package static let authenticationRequired = 530

    /// How the failure should be handled.
    package enum Kind: Sendable { case permanent, transient, uncertain }

    /// 5xx: permanent. 4xx: transient (try again later). No final reply after the data: uncertain.
    /// No reply before the data (refused or dropped connection): transient.
    ///
    /// A failure to *send* (`CURLE_SEND_ERROR`) is transient even when libcurl had taken every
    /// byte: its buffers and the socket's hold the message, and the connection broke before the
    /// end-of-data line (`.`) was written. A server accepts a message only at that line (RFC 5321
    /// §4.1.1.4: a message cut short is discarded), so nothing can have been delivered. A failure
    /// to *receive* after the data stays uncertain: the `.` may have arrived.
    package var kind: Kind {
        if (500...599).contains(smtpCode) { return .permanent }
        if (400...499).contains(smtpCode) { return .transient }
        if curlCode == Int(CURLE_SEND_ERROR.rawValue) { return .transient }
        return dataHandedOver ? .uncertain : .transient
    }

    /// Whether the failure is the server's, not one recipient's or one message's: no connection
    /// or no reply at all, 421 ("closing the channel", whatever the command), or a refusal of the
    /// sender or of `DATA` itself. A 4xx to `RCPT TO` (a mailbox full) or to the end of the data
    /// is about that recipient or message: three such in a row stopped every run, and nobody
    /// after those three ids was ever sent (outside delivery re-test).
    ///
    /// An enhanced status code (RFC 3463) says so whatever the command: `4.3.x` is the mail
    /// system's (its storage full, 452 4.3.1 to every RCPT TO), `4.4.x` the network's, where
    /// `4.2.x` is the mailbox's.
    package var isAboutTheServer: Bool {
        if smtpCode == 0 || smtpCode == 421 { return true }
        if let subject = enhancedStatusSubject { return subject == 3 || subject == 4 }
        return curlMessage.contains("MAIL failed") || curlMessage.contains("DATA failed")
    }

    /// The subject digit of the reply's enhanced status code (`452 4.3.1 …` → 3), when it has one
    /// of the reply's own class.
    var enhancedStatusSubject: Int? {
        guard let text = smtpText else { return nil }
        let b = Array(text.utf8.prefix(12))
        // "452 4.3.1" or "452-4.3.1": the code, a separator, then class.subject.detail.
        guard b.count >= 9, b[3] == UInt8(ascii: " ") || b[3] == UInt8(ascii: "-"), b[4] == b[0], b[5] == UInt8(ascii: "."),
              (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(b[6]), b[7] == UInt8(ascii: ".") else { return nil }
        return Int(b[6] - UInt8(ascii: "0"))
    }

    package var description: String {
        var text = curlMessage
        if smtpCode != 0 { text += " (SMTP \(smtpCode)\(smtpText.map { ": " + $0 } ?? ""))" }
        return text
    }
}
