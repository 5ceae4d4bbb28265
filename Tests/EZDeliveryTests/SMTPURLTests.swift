import XCTest
@testable import EZDelivery

/// `--smtp`'s URL rules (``SMTPSettings/problem(url:)``): what is refused as a bad argument
/// before any connection, and what a server's usual URLs look like.
final class SMTPURLTests: XCTestCase {
    func testUsualServerURLsAreAccepted() {
        for url in ["smtp://mail.example.com:587", "smtps://mail.example.com:465", "smtp://mail.example.com",
                    "smtp://127.0.0.1:2525", "smtp://[::1]:25", "smtp://[::1]", "smtps://user:pa:ss@mail.example.com:465",
                    "smtp://user:p%40ss@mail.example.com:25",
                    "SMTP://MAIL.EXAMPLE.COM:1", "smtp://host:65535/"] {
            XCTAssertNil(SMTPSettings.problem(url: url), url)
        }
    }

    static let encodeThem = "--smtp's user or password holds '/', '?', '#' or '@': write them percent-encoded (%2F, %3F, %23, %40)"

    func testABadPortOrHostIsNamed() {
        let cases: [(String, String)] = [
            ("smtp://host:0", "--smtp port '0' is not a number from 1 to 65535"),
            ("smtp://host:65536", "--smtp port '65536' is not a number from 1 to 65535"),
            ("smtp://host:", "--smtp port '' is not a number from 1 to 65535"),
            ("smtp://host:+25", "--smtp port '+25' is not a number from 1 to 65535"),
            ("smtp://host:2 5", "--smtp contains spaces or control characters"),
            ("smtp://user:secret@host:x", "--smtp port 'x' is not a number from 1 to 65535"),
            ("smtp://[::1]:99999", "--smtp port '99999' is not a number from 1 to 65535"),
            ("smtp://[::1", "--smtp has an unclosed '[' in its host"),
            ("smtp://[::1]x", "--smtp has text after its host's ']'"),
            ("smtp://:25", "--smtp names no host"),
            ("smtp://", "--smtp names no host"),
            ("smtp://user:secret@", "--smtp names no host"),
            ("smtp://user:secret@/", "--smtp names no host"),
            ("http://host:25", "--smtp must be smtp://host:port or smtps://host:port (got 'http://host:25')"),
            // libcurl refuses these only when it connects ("URL using bad/illegal format", exit 1),
            // or logs in with no user (outside delivery test): bad arguments, exit 64.
            ("smtp://user:p@ss@mail.example.com:25", Self.encodeThem),
            ("smtp://user:pa/ss:x@mail.example.com:25", Self.encodeThem),
            ("smtp://user:pa?ss@mail.example.com:25", Self.encodeThem),
            ("smtp://user:pa#ss@mail.example.com:25", Self.encodeThem),
            ("smtp://:secret@mail.example.com:25", "--smtp names a password but no user (smtp://USER:PASSWORD@host): libcurl would not log in with it"),
            ("smtp://u:p%zz@mail.example.com:25", "--smtp's user or password holds a '%' that is not an escape such as %40: write a '%' itself as %25"),
            ("smtp://u:p%00x@mail.example.com:25", "--smtp's user or password holds an escaped control character (%00 to %1F)"),
            ("smtp://u:p%4@mail.example.com:25", "--smtp's user or password holds a '%' that is not an escape such as %40: write a '%' itself as %25"),
        ]
        for (url, problem) in cases {
            XCTAssertEqual(SMTPSettings.problem(url: url), problem, url)
        }
    }
}
