import CCurl
import Foundation

/// One SMTP session through libcurl: a single easy handle, reused for every message so that
/// libcurl keeps one connection open (with its STARTTLS and AUTH) across the run.
///
/// This type owns the `CURL` handle and the `RCPT TO` list and frees them in `deinit`; no
/// pointer escapes it. Every libcurl failure becomes an ``SMTPError`` with libcurl's message and
/// the server's reply code and text.
final class SMTPConnection {
    private var handle: UnsafeMutableRawPointer
    private let transfer = TransferState()
    private var recipients: CurlStringList?
    private let settings: SMTPSettings
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

    /// libcurl loaded (see CCurl.h) and its process-wide set-up done, once before the first handle
    /// (the set-up is not thread-safe in libcurl): nil when both succeeded, else why not.
    private static let unavailable: String? = {
        var reason = [CChar](repeating: 0, count: 512)
        guard ez_curl_load(&reason, reason.count) != 0 else {
            return "libcurl cannot be loaded: " + reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
        let code = ez_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return code == CURLE_OK ? nil : "libcurl could not be initialised: " + String(cString: ez_curl_easy_strerror(code))
    }()

    /// A handle configured for `settings`; nothing is connected until the first transfer.
    init(settings: SMTPSettings) throws(SMTPError) {
        if let reason = Self.unavailable {
            throw SMTPError(curlCode: Int(CURLE_FAILED_INIT.rawValue), curlMessage: reason, smtpCode: 0, smtpText: nil,
                            dataHandedOver: false)
        }
        guard let handle = ez_curl_easy_init() else {
            throw SMTPError(curlCode: Int(CURLE_FAILED_INIT.rawValue), curlMessage: "libcurl could not be initialised",
                            smtpCode: 0, smtpText: nil, dataHandedOver: false)
        }
        self.handle = handle
        self.settings = settings
        do {
            try configure()
        } catch {
            ez_curl_easy_cleanup(handle)
            throw error
        }
    }

    deinit { ez_curl_easy_cleanup(handle) }

    private func configure() throws(SMTPError) {
        try check(ez_curl_setopt_string(handle, CURLOPT_URL, settings.url))
        try check(ez_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(settings.allowsPlainText ? CURLUSESSL_TRY.rawValue : CURLUSESSL_ALL.rawValue)))
        try check(ez_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, settings.connectTimeout))
        try check(ez_curl_setopt_long(handle, CURLOPT_TIMEOUT, settings.messageTimeout))
        try check(ez_curl_setopt_long(handle, CURLOPT_SERVER_RESPONSE_TIMEOUT, settings.replyTimeout))
        try check(ez_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        try check(ez_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"))
        try check(ez_curl_setopt_long(handle, CURLOPT_TCP_NODELAY, 1))
        if let caFile = settings.caFile { try check(ez_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
        if let user = settings.user { try check(ez_curl_setopt_string(handle, CURLOPT_USERNAME, user)) }
        if let password = settings.password { try check(ez_curl_setopt_string(handle, CURLOPT_PASSWORD, password)) }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        try check(ez_curl_setopt_read_function(handle, { buffer, size, count, context in
            guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
            return Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: size * count)
        }))
        try check(ez_curl_setopt_pointer(handle, CURLOPT_READDATA, context))
        try check(ez_curl_setopt_write_function(handle, { _, size, count, _ in size * count }))
        try check(ez_curl_setopt_debug_function(handle, { _, type, data, size, context in
            guard let data, let context else { return 0 }
            let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
            if type == CURLINFO_HEADER_IN { state.serverSaid(data, size) }
            // A transfer that fails (a reply timed out, a refusal) makes libcurl end the
            // connection with QUIT and wait for its reply, as long again as the reply it gave up
            // on: a server silent after RCPT TO was waited for twice (240 s for 120, outside
            // delivery re-test). Once QUIT is out during a transfer, the socket is shut down, so
            // that wait ends at once; the connection is closed anyway.
            if type == CURLINFO_HEADER_OUT, state.performing, state.socket >= 0, size >= 4, memcmp(data, "QUIT", 4) == 0 {
                _ = shutdown(state.socket, Int32(SHUT_RDWR))
            }
            return 0
        }))
        // The connection's socket, as libcurl makes it: the one that QUIT above goes out on (the
        // connection is already detached from the handle then: `CURLINFO_ACTIVESOCKET` has none).
        try check(ez_curl_setopt_sockopt_function(handle, { context, socket, _ in
            if let context { Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue().socket = socket }
            return CURL_SOCKOPT_OK
        }))
        try check(ez_curl_setopt_pointer(handle, CURLOPT_SOCKOPTDATA, context))
        try check(ez_curl_setopt_pointer(handle, CURLOPT_DEBUGDATA, context))
        try check(ez_curl_setopt_long(handle, CURLOPT_VERBOSE, 1))   // feeds the debug callback only
        try errorBuffer.withUnsafeMutableBufferPointer { buffer throws(SMTPError) in
            try check(ez_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress))
        }
    }

    /// Connects (greeting, EHLO, STARTTLS, AUTH) and sends `NOOP`: proves the server is reachable
    /// and speaks TLS as required before anything is sent.
    func preflight() throws(SMTPError) {
        try check(ez_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, "NOOP"))
        try check(ez_curl_setopt_long(handle, CURLOPT_UPLOAD, 0))
        try check(ez_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, nil))
        transfer.reset(message: Data())
        try perform()
        try check(ez_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, nil))
    }

    /// Sends one message to one recipient; returns the server's final reply (code, text).
    ///
    /// `beforeData` runs once, when the server has said go ahead (354) and before the first byte
    /// of the message leaves: the caller records there that the message may be on its way. It
    /// returns false to abort the transfer before any of the message is sent.
    func send(_ message: Data, from: MailAddress, to: MailAddress,
              beforeData: @escaping () -> Bool = { true }) throws(SMTPError) -> (code: Int, text: String?) {
        guard let list = CurlStringList(["<" + to.text + ">"]) else {
            throw SMTPError(curlCode: Int(CURLE_OUT_OF_MEMORY.rawValue), curlMessage: "out of memory", smtpCode: 0,
                            smtpText: nil, dataHandedOver: false)
        }
        recipients = list
        try check(ez_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, list.head))
        try check(ez_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<" + from.text + ">"))
        try check(ez_curl_setopt_long(handle, CURLOPT_UPLOAD, 1))
        try check(ez_curl_setopt_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.count)))
        transfer.reset(message: message, beforeData: beforeData)
        try perform()
        let code = responseCode()
        return (code, transfer.reply(for: code))
    }

    private func perform() throws(SMTPError) {
        errorBuffer[0] = 0
        transfer.performing = true
        let code = ez_curl_easy_perform(handle)
        transfer.performing = false
        guard code == CURLE_OK else {
            defer { closeConnection() }
            var message = String(cString: ez_curl_easy_strerror(code))
            let detail = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            if !detail.isEmpty, detail != message { message += ": " + detail }
            // A reply that never came (a timeout, a connection reset or closed) leaves libcurl's
            // last code that of an earlier command (the 250 to `RCPT TO`): a `failed` line read as
            // if the server had answered the message with 250 (outside delivery test).
            // Nor is a TLS failure a reply (the 220 quoted beside "certificate problem" was the
            // go-ahead for STARTTLS).
            let noReply = [CURLE_OPERATION_TIMEDOUT, CURLE_RECV_ERROR, CURLE_GOT_NOTHING,
                           CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR].contains(code)
            // A 3xx is a go-ahead, never the answer to the message: after a broken pipe during
            // the upload, the last code was DATA's 354 (outside delivery re-test).
            let lastCode = responseCode()
            let smtpCode = noReply || (300...399).contains(lastCode) ? 0 : lastCode
            throw SMTPError(curlCode: Int(code.rawValue), curlMessage: message, smtpCode: smtpCode,
                            smtpText: smtpCode == 0 ? nil : transfer.reply(for: smtpCode), dataHandedOver: transfer.handedOver)
        }
    }

    /// Drops the connection after a failed transfer, so that the next message starts on a new one.
    ///
    /// libcurl may keep a connection whose transfer failed: after a timeout waiting for the reply
    /// to the data, the server's late "554 rejected" was read as the answer to the next user's
    /// `MAIL FROM`, failing a message that was never sent. Replacing the handle closes its
    /// connection; the failed transfer's reply code and text were read before (``perform()``).
    ///
    /// The connection's socket is shut down first: libcurl ends a connection it closes with `QUIT`
    /// and waits for the reply, so a server that had gone silent was waited for twice, the reply
    /// timeout once for the message and once again for `QUIT` (240 s instead of 120, outside
    /// delivery test). Shut down, the `QUIT` fails at once and nothing is waited for.
    private func closeConnection() {
        var socket: curl_socket_t = -1
        if ez_curl_getinfo_socket(handle, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket >= 0 {
            _ = shutdown(socket, Int32(SHUT_RDWR))
        }
        guard let fresh = ez_curl_easy_init() else {
            // Out of memory: at least never reuse the connection this handle holds.
            _ = ez_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1)
            _ = ez_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1)
            return
        }
        ez_curl_easy_cleanup(handle)
        handle = fresh
        do { try configure() } catch {
            // The same options were taken by the first handle; should one now be refused, the
            // next transfer fails on the missing option (e.g. no URL) with libcurl's message.
        }
    }

    private func responseCode() -> Int {
        var code = 0
        _ = ez_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    private func check(_ code: CURLcode) throws(SMTPError) {
        guard code == CURLE_OK else {
            throw SMTPError(curlCode: Int(code.rawValue), curlMessage: "libcurl refused an option: " + String(cString: ez_curl_easy_strerror(code)),
                            smtpCode: 0, smtpText: nil, dataHandedOver: false)
        }
    }
}

/// What libcurl's callbacks read and report during one transfer: the message being uploaded,
/// whether all of it was handed over, and the server's last reply line.
private final class TransferState {
    private var message = Data()
    private var offset = 0
    private(set) var handedOver = false
    private var replies: [String] = []

    private var beforeData: (() -> Bool)?
    /// True while `curl_easy_perform` runs a transfer (not while a handle is being cleaned up).
    var performing = false
    /// The socket of the connection libcurl made last (-1 before any).
    var socket: curl_socket_t = -1

    func reset(message: Data, beforeData: (() -> Bool)? = nil) {
        self.message = message
        self.beforeData = beforeData
        offset = 0
        handedOver = false
        replies = []
    }

    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        // libcurl asks for the message only once the server has answered DATA with 354.
        if let hook = beforeData {
            beforeData = nil
            guard hook() else { return Int(CURL_READFUNC_ABORT) }
        }
        let n = min(capacity, message.count - offset)
        if n > 0 {
            message.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + offset, byteCount: n)
            }
            offset += n
        }
        // libcurl stops reading at the announced size, so "handed over" is "every byte given".
        if offset == message.count { handedOver = true }
        return n
    }

    /// Keeps the server's reply lines of this transfer (printable ASCII, at most 200 characters each).
    func serverSaid(_ data: UnsafeMutablePointer<CChar>, _ size: Int) {
        let bytes = UnsafeRawBufferPointer(start: data, count: size)
        for line in bytes.split(separator: 0x0A) {
            let text = String(decoding: line.filter { (0x20...0x7E).contains($0) }, as: UTF8.self)
            if !text.isEmpty { replies.append(String(text.prefix(200))) }
        }
        if replies.count > 64 { replies.removeFirst(replies.count - 64) }
    }

    /// The last reply with `code` (libcurl's `CURLINFO_RESPONSE_CODE`), or the last line: after a
    /// refusal libcurl says `QUIT`, and the `221` must not hide the `550` that mattered. A
    /// multi-line reply (`550-…` lines, then `550 …`) is given whole, its lines joined by " / ":
    /// relays put the explanation, or where to read it, on the first (outside delivery test).
    func reply(for code: Int) -> String? {
        let final = String(code) + " ", more = String(code) + "-"
        guard let last = replies.lastIndex(where: { $0.hasPrefix(final) || $0.hasPrefix(more) || $0 == String(code) }) else {
            return replies.last
        }
        var first = last
        while first > replies.startIndex, replies[first - 1].hasPrefix(more) { first -= 1 }
        return String(replies[first...last].joined(separator: " / ").prefix(600))
    }
}
