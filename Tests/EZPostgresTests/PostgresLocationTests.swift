import EZLedger
import EZPostgres
import Foundation
import XCTest

/// `--db postgres://…`: what a URL may say, and where the password comes from.
final class PostgresLocationTests: XCTestCase {
    func testAURLNamesUserHostPortDatabaseAndTLS() throws {
        let l = try PostgresLocation(url: "postgresql://report@db.internal:6543/wallet?sslmode=verify-full&sslrootcert=/etc/ca.pem",
                                     password: nil)
        XCTAssertEqual(l.user, "report")
        XCTAssertEqual(l.host, "db.internal")
        XCTAssertEqual(l.port, 6543)
        XCTAssertEqual(l.database, "wallet")
        XCTAssertEqual(l.sslMode, .verifyFull)
        XCTAssertEqual(l.sslRootCert, "/etc/ca.pem")
        let defaults = try PostgresLocation(url: "postgres://report@db/wallet", password: nil)
        XCTAssertEqual(defaults.port, 5432)
        XCTAssertEqual(defaults.sslMode, .prefer, "libpq's default")
    }

    func testAPasswordInTheURLIsRefusedAndNeverEchoed() {
        // libpq's ?password= parameter too: it used to be echoed as "unknown URL parameter".
        for url in ["postgres://report:hunter2@db/wallet", "postgres://report@db/wallet?password=hunter2",
                    "postgres://report@db/wallet?sslmode=disable&password=hunter2"] {
            XCTAssertThrowsError(try PostgresLocation(url: url, password: nil)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("PGPASSWORD or --db-password-file"), text)
                XCTAssertTrue(text.contains("(sample: --out-password-file)"), "sample takes its own option: \(text)")
                XCTAssertFalse(text.contains("hunter2"), text)
            }
        }
    }

    /// libpq's `sslpassword` (the client key's passphrase) is not understood: it is refused, and
    /// its value, which used to be copied into the error line, is not shown.
    /// A URL that does not parse printed its password whole (`cannot open ledger
    /// 'postgres://ezreport:TOPSECRET@…'`, in every command and in serve's JSON log) (outside
    /// PostgreSQL test).
    func testAMalformedURLWithAPasswordNeverEchoesIt() {
        for url in ["postgres://ezreport:TOPSECRET@127.0.0.1:notaport/wallet", "postgres://ezreport:TOPSECRET@127.0.0.1:-1/wallet",
                    "postgres://ezreport:TOPSECRET@127.0.0.1:5432:1/wallet", "postgres://ezreport:TOPSECRET@127.0 .0.1/wallet",
                    "postgres://ezreport:TOPSECRET@[::1/wallet", "postgres://ez:TOP@SECRET@[db/wallet"] {
            XCTAssertThrowsError(try PostgresLocation(url: url, password: nil)) { error in
                let text = "\(error)"
                XCTAssertFalse(text.contains("TOPSECRET") || text.contains("SECRET"), text)
                XCTAssertTrue(text.contains("postgres://ez"), "the URL is still named: \(text)")
            }
        }
    }

    func testASSLPasswordParameterIsRefusedWithoutItsValue() {
        XCTAssertThrowsError(try PostgresLocation(url: "postgres://report@db/wallet?sslmode=require&sslpassword=Secret1", password: nil)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("unknown URL parameter 'sslpassword'"), text)
            XCTAssertFalse(text.contains("Secret1"), text)
        }
    }

    func testIncompleteURLsAndUnknownParametersAreOneLineErrors() {
        for (url, mention) in [("postgres://db/wallet", "no user"), ("postgres://report@db", "no database"),
                               ("postgres://report@db/wallet?sslmode=sometimes", "sslmode 'sometimes'"),
                               ("postgres://report@db/wallet?pool=3", "unknown URL parameter 'pool'"),
                               // It wrapped: 99999 connected to port 34463 (99999 mod 65536), another server.
                               ("postgres://report@127.0.0.1:99999/wallet", "port 99999 is not a number from 1 to 65535"),
                               ("postgres://report@127.0.0.1:0/wallet", "port 0 is not")] {
            XCTAssertThrowsError(try PostgresLocation(url: url, password: nil), url) { error in
                XCTAssertTrue("\(error)".contains(mention), "\(url): \(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }

    func testThePasswordFileWinsOverPGPASSWORD() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)").path
        try Data("from-file\nignored second line\n".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        XCTAssertEqual(try PostgresLocation.password(file: file, environment: ["PGPASSWORD": "from-env"]), "from-file")
        XCTAssertEqual(try PostgresLocation.password(file: nil, environment: ["PGPASSWORD": "from-env"]), "from-env")
        XCTAssertNil(try PostgresLocation.password(file: nil, environment: [:]))
        XCTAssertThrowsError(try PostgresLocation.password(file: file + ".missing", environment: [:]))
    }

    /// A password file saved with Windows line endings sent "secret\r\n" as the password (Swift
    /// reads "\r\n" as one character, unseen by a split on "\n"), and the server refused it.
    func testAPasswordFileWithWindowsLineEndingsGivesTheBarePassword() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        for content in ["s3cret\r\n", "s3cret\r\nsecond line\r\n", "s3cret", "s3cret\n"] {
            try Data(content.utf8).write(to: URL(fileURLWithPath: file))
            XCTAssertEqual(try PostgresLocation.password(file: file, environment: [:]), "s3cret", content.debugDescription)
        }
    }

    func testOnlyPostgresURLsAreServers() {
        XCTAssertTrue(PostgresLocation.isURL("postgres://a@b/c"))
        XCTAssertTrue(PostgresLocation.isURL("postgresql://a@b/c"))
        XCTAssertFalse(PostgresLocation.isURL("ledger.sqlite"))
        XCTAssertFalse(PostgresLocation.isURL("./postgres://x"))
    }
}
