import EZServer
import EZTestSupport
import Foundation
import JWTKit

/// A small ledger with the people the authorization matrix needs, and tokens for them.
///
/// - alice: an ordinary user with transactions in 2026-09 (Food, Rent, Fun; income);
/// - bob: a parent of carol; carol: a child; dave: a stranger; root: an admin; erin: deleted.
final class ServerFixture {
    let ledger: TestLedger
    let secret: [UInt8] = Array("test-secret-0123456789-abcdef-0123456789".utf8)
    let alice: Int64, bob: Int64, carol: Int64, dave: Int64, root: Int64, erin: Int64
    let period = "2026-09"
    let asOf = "2026-10-01"

    init() throws {
        ledger = try TestLedger()
        alice = try ledger.user("alice")
        bob = try ledger.user("bob")
        carol = try ledger.user("carol", chartStyle: "doughnut")
        dave = try ledger.user("dave")
        root = try ledger.user("root", role: "admin")
        erin = try ledger.user("erin", deletedAt: "2026-05-01T00:00:00Z")
        try ledger.family("B family", [(bob, "parent"), (carol, "child")])
        let food = try ledger.category(alice, "Food", color: "#ff0000")
        let rent = try ledger.category(alice, "Rent", color: "#00ff00")
        let fun = try ledger.category(alice, "Fun", color: "#0000ff")
        try ledger.income(alice, 250_000, on: "2026-09-01T09:00:00+02:00")
        try ledger.expense(alice, 90_000, on: "2026-09-02T10:00:00+02:00", category: rent, description: "September rent")
        try ledger.expense(alice, 1_250, on: "2026-09-03T12:00:00+02:00", category: food, description: "Pizza Margherita")
        try ledger.expense(alice, 4_575, on: "2026-09-05T19:30:00+02:00", category: food, description: "Groceries")
        try ledger.expense(alice, 3_333, on: "2026-09-10T21:00:00+02:00", category: fun, description: "Cinema and PIZZA")
        try ledger.expense(alice, 999, on: "2026-09-30T23:30:00+02:00", category: fun, description: "Late snack")
        try ledger.expense(alice, 2_000, on: "2026-10-01T00:30:00+02:00", category: food, description: "October breakfast")
        try ledger.expense(alice, 1_500, on: "2026-08-31T23:59:00+02:00", category: food, description: "August dinner")
        let toys = try ledger.category(carol, "Toys")
        try ledger.expense(carol, 1_999, on: "2026-09-12T15:00:00+02:00", category: toys, description: "Lego")
        try ledger.expense(dave, 5_000, on: "2026-09-12T15:00:00+02:00", description: "Dave's")
    }

    /// A valid token for `user`.
    func token(_ user: Int64, ttl: Int64 = 3600) async throws -> String {
        try await TokenKeys.hs256(secret: secret).mint(userId: user, ttl: ttl)
    }

    /// A token signed with `key` for arbitrary claims (for malformed and hostile tokens).
    func signed<P: JWTPayload>(_ payload: P, key: [UInt8]? = nil, header: JWTHeader = JWTHeader()) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: key ?? secret), digestAlgorithm: .sha256)
        return try await keys.sign(payload, header: header)
    }
}

/// Claims with `sub` and `exp` and optional `nbf`, for hand-made tokens.
struct TestClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var nbf: NotBeforeClaim?
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Claims with an audience.
struct AudienceClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var aud: AudienceClaim
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// Claims without `exp`.
struct NoExpiryClaims: JWTPayload {
    var sub: SubjectClaim
    func verify(using algorithm: some JWTAlgorithm) throws {}
}
