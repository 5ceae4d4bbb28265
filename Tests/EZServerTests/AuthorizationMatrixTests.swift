import Crypto
import EZServer
import Foundation
import HTTPTypes
import JWTKit
import XCTest

/// Who may see what: the token says who, the ledger says what they may see.
final class AuthorizationMatrixTests: LiveServerTestCase {
    func statementCSV(_ user: Int64) -> String { "/v1/users/\(user)/statement/2026-09/categories.csv?as_of=2026-10-01" }

    private func assertUnauthorized(_ token: String?, file: StaticString = #filePath, line: UInt = #line) async throws {
        let response = try await server.get(statementCSV(fixture.alice), token: token)
        XCTAssertEqual(response.status, .unauthorized, file: file, line: line)
        XCTAssertEqual(response.headers[.wwwAuthenticate], "Bearer", file: file, line: line)
        XCTAssertEqual(response.headers[.contentType], "application/problem+json", file: file, line: line)
        XCTAssertEqual(try response.json()["detail"] as? String, "a valid bearer token is required", file: file, line: line)
    }

    func testARequestWithoutATokenIsRefusedWith401() async throws {
        try await assertUnauthorized(nil)
    }

    func testAMalformedTokenIsRefusedWith401() async throws {
        try await assertUnauthorized("not.a.jwt")
        try await assertUnauthorized("garbage")
    }

    func testATokenWithABadSignatureIsRefusedWith401() async throws {
        let forged = try await fixture.signed(TestClaims(sub: .init(value: "\(fixture.alice)"), exp: .init(value: Date().addingTimeInterval(600))),
                                              key: Array("another-secret-0123456789-0123456789-abc".utf8))
        try await assertUnauthorized(forged)
    }

    /// One signature has one spelling: the 43rd character of an HMAC-SHA256 signature carries four
    /// bits, and variants of it that differ only in the two unused bits (or a trailing `=`) were
    /// accepted as the same token.
    func testATokenWhoseBase64IsNotCanonicalIsRefusedWith401() async throws {
        let token = try await fixture.token(fixture.alice)
        let good = try await server.get(statementCSV(fixture.alice), token: token)
        XCTAssertEqual(good.status, .ok)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try XCTUnwrap(token.last)
        let index = try XCTUnwrap(alphabet.firstIndex(of: last))
        XCTAssertEqual(index & 0b11, 0, "a canonical last character leaves its two low bits zero")
        for stray in 1...3 {
            try await assertUnauthorized(String(token.dropLast()) + String(alphabet[index | stray]))
        }
        try await assertUnauthorized(token + "=")
    }

    /// A valid HMAC-SHA256 signature under a header that says another algorithm, or lists a
    /// critical extension the server does not know, is refused (RFC 8725 §3.1, RFC 7515 §4.1.11).
    func testATokenWhoseHeaderIsNotPlainHS256IsRefusedWith401() async throws {
        let claims = TestClaims(sub: .init(value: "\(fixture.alice)"), exp: .init(value: Date().addingTimeInterval(600)))
        for fields in [["alg": JWTHeaderField.string("none")], ["alg": .string("HS512")], ["alg": .string("RS256")],
                       ["alg": .string("HS256"), "crit": .array([.string("exp-ext")])]] {
            try await assertUnauthorized(try await fixture.signed(claims, header: JWTHeader(fields: fields)))
        }
        let plain = try await fixture.signed(claims, header: JWTHeader(fields: ["alg": .string("HS256")]))
        let accepted = try await server.get(statementCSV(fixture.alice), token: plain)
        XCTAssertEqual(accepted.status, .ok)
    }

    /// A token naming a claim or a header parameter twice, correctly signed: `{"sub":"A","sub":"B"}`
    /// was read as user A, where a backend keeping the last name (as RFC 7519 §4 allows) reads B.
    /// Such tokens are refused (RFC 7519 §4, RFC 7515 §4: reject, or use the last).
    func testATokenNamingAClaimOrHeaderParameterTwiceIsRefusedWith401() async throws {
        let exp = Int(Date().addingTimeInterval(600).timeIntervalSince1970)
        func token(header: String, claims: String) -> String { token(header: header, claimsBytes: Data(claims.utf8)) }
        func token(header: String, claimsBytes claims: Data) -> String {
            func base64URL(_ bytes: Data) -> String {
                bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            }
            let input = base64URL(Data(header.utf8)) + "." + base64URL(claims)
            let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: fixture.secret))
            return input + "." + base64URL(Data(mac))
        }
        let plain = #"{"alg":"HS256","typ":"JWT"}"#
        let accepted = try await server.get(statementCSV(fixture.alice), token: token(header: plain, claims: #"{"sub":"\#(fixture.alice)","exp":\#(exp)}"#))
        XCTAssertEqual(accepted.status, .ok, "the same token without the repetition is good")
        try await assertUnauthorized(token(header: plain, claims: #"{"sub":"\#(fixture.alice)","sub":"\#(fixture.bob)","exp":\#(exp)}"#))
        try await assertUnauthorized(token(header: plain, claims: #"{"sub":"\#(fixture.alice)","sub":"\#(fixture.bob)","exp":\#(exp)}"#))
        try await assertUnauthorized(token(header: #"{"alg":"HS256","alg":"none"}"#, claims: #"{"sub":"\#(fixture.alice)","exp":\#(exp)}"#))
        // `"aud": null` is an audience that names no server (it was read as no `aud`), and claims
        // must be UTF-8 (a Latin-1 "é" was accepted): outside server test.
        try await assertUnauthorized(token(header: plain, claims: #"{"sub":"\#(fixture.alice)","exp":\#(exp),"aud":null}"#))
        let latin1 = Data(#"{"sub":"\#(fixture.alice)","exp":\#(exp),"x":""#.utf8) + Data([0xE9]) + Data(#""}"#.utf8)
        try await assertUnauthorized(token(header: plain, claimsBytes: latin1))
    }

    /// The scheme's name is case-insensitive (RFC 9110 §11.1): `bearer` works as `Bearer` does.
    func testTheBearerSchemeIsCaseInsensitive() async throws {
        let token = try await fixture.signed(TestClaims(sub: .init(value: "\(fixture.alice)"), exp: .init(value: Date().addingTimeInterval(600))))
        for scheme in ["bearer", "BEARER", "Bearer"] {
            let response = try await server.get(statementCSV(fixture.alice), headers: [.authorization: scheme + " " + token])
            XCTAssertEqual(response.status, .ok, scheme)
        }
    }

    func testAnExpiredTokenIsRefusedWith401() async throws {
        let expired = try await fixture.signed(TestClaims(sub: .init(value: "\(fixture.alice)"), exp: .init(value: Date().addingTimeInterval(-60))))
        try await assertUnauthorized(expired)
    }

    func testATokenWithoutExpiryOrNotYetValidIsRefusedWith401() async throws {
        try await assertUnauthorized(try await fixture.signed(NoExpiryClaims(sub: .init(value: "\(fixture.alice)"))))
        let early = try await fixture.signed(TestClaims(sub: .init(value: "\(fixture.alice)"), exp: .init(value: Date().addingTimeInterval(600)),
                                                        nbf: .init(value: Date().addingTimeInterval(300))))
        try await assertUnauthorized(early)
    }

    /// The app's clock may run a little ahead: `nbf` (like `iat`) gets a minute of leeway. A token
    /// the app minted with `nbf` = now was refused while this server's clock was a second behind.
    func testANotBeforeWithinAMinuteOfClockSkewIsAccepted() async throws {
        for (ahead, expected) in [(5.0, HTTPResponse.Status.ok), (45, .ok), (120, .unauthorized)] {
            let token = try await fixture.signed(TestClaims(sub: .init(value: "\(fixture.alice)"), exp: .init(value: Date().addingTimeInterval(600)),
                                                            nbf: .init(value: Date().addingTimeInterval(ahead))))
            let status = try await server.get(statementCSV(fixture.alice), token: token).status
            XCTAssertEqual(status, expected, "nbf \(ahead) s ahead")
        }
    }

    /// RFC 7519 §4.1.3: a token whose `aud` does not name this server must be refused. Tokens the
    /// app's backend signed for its other services ("payments-service"), with the same secret,
    /// were taken here. Without `--jwt-audience` any `aud` is refused; with it, only one naming it.
    func testATokenForAnotherAudienceIsRefusedWith401() async throws {
        func token(_ audience: [String]) async throws -> String {
            try await fixture.signed(AudienceClaims(sub: .init(value: "\(fixture.alice)"), exp: .init(value: Date().addingTimeInterval(600)),
                                                    aud: .init(value: audience)))
        }
        try await assertUnauthorized(try await token(["payments-service"]))
        try await assertUnauthorized(try await token(["ezreport"]))
        let named = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret) { $0.jwtAudience = "ezreport" }
        defer { Task { await named.stop() } }
        for (audience, expected) in [(["ezreport"], HTTPResponse.Status.ok), (["payments-service", "ezreport"], .ok),
                                     (["payments-service"], .unauthorized)] {
            let status = try await named.get(statementCSV(fixture.alice), token: try await token(audience)).status
            XCTAssertEqual(status, expected, "aud \(audience)")
        }
        // A token without aud is still taken: the claim is optional.
        let plain = try await named.get(statementCSV(fixture.alice), token: try await fixture.token(fixture.alice)).status
        XCTAssertEqual(plain, .ok)
    }

    func testADeletedOrUnknownUsersTokenIsRefusedWith401() async throws {
        try await assertUnauthorized(try await fixture.token(fixture.erin))
        try await assertUnauthorized(try await fixture.token(999_999))
    }

    func testAUserSeesTheirOwnStatement() async throws {
        let response = try await server.get(statementCSV(fixture.alice), token: try await fixture.token(fixture.alice))
        XCTAssertEqual(response.status, .ok)
        XCTAssertTrue(response.text.hasPrefix("category,count,amount,percent,currency"))
    }

    func testAParentSeesTheirChildsStatement() async throws {
        let response = try await server.get(statementCSV(fixture.carol), token: try await fixture.token(fixture.bob))
        XCTAssertEqual(response.status, .ok)
        XCTAssertTrue(response.text.contains("Toys"))
    }

    func testInvisibleUsersAnswerExactlyLikeNonexistentOnes() async throws {
        let nonexistent = try await server.get(statementCSV(424_242), token: try await fixture.token(fixture.alice))
        XCTAssertEqual(nonexistent.status, .notFound)
        let cases: [(caller: Int64, target: Int64)] = [
            (fixture.carol, fixture.bob),    // child → parent
            (fixture.alice, fixture.dave),   // another user
            (fixture.root, fixture.alice),   // admin → a user
            (fixture.root, fixture.root),    // admin → themselves: no individual data
            (fixture.alice, fixture.erin),   // a deleted user
        ]
        for (caller, target) in cases {
            let response = try await server.get(statementCSV(target), token: try await fixture.token(caller))
            XCTAssertEqual(response.status, .notFound, "caller \(caller) → \(target)")
            XCTAssertEqual(response.bytes, nonexistent.bytes, "caller \(caller) → \(target)")
            XCTAssertEqual(Self.comparable(response.headers), Self.comparable(nonexistent.headers), "caller \(caller) → \(target)")
        }
    }

    func testAUserIsRefusedTheAdminEndpointsWith403AndAnAdminGetsThem() async throws {
        let refused = try await server.get("/v1/admin/usage/2026-09.csv?as_of=2026-10-01", token: try await fixture.token(fixture.alice))
        XCTAssertEqual(refused.status, .forbidden)
        XCTAssertEqual(refused.headers[.contentType], "application/problem+json")
        let allowed = try await server.get("/v1/admin/usage/2026-09.csv?as_of=2026-10-01", token: try await fixture.token(fixture.root))
        XCTAssertEqual(allowed.status, .ok)
        XCTAssertEqual(allowed.headers[.contentType], "text/csv; charset=utf-8")
    }

    /// Headers apart from the ones that differ between any two responses (date).
    static func comparable(_ fields: HTTPFields) -> [String] {
        fields.filter { $0.name != .date }.map { "\($0.name.canonicalName): \($0.value)" }.sorted()
    }
}
