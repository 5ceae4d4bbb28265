import Foundation
import Hummingbird
import HummingbirdAuth
import JWTKit

/// The claims `ezreport serve` reads from a token: `sub` (the user id, decimal) and `exp` are
/// required; `iat`, `nbf` and `aud` are honoured when present; any other claim is ignored.
struct AccessClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim?
    var nbf: NotBeforeClaim?
    /// Whom the token is for. RFC 7519 §4.1.3: a token whose `aud` does not name this server
    /// (``TokenAuthenticator/audience``) must be refused, so that a token the app's backend
    /// signed for another of its services, with the same secret, is not taken here.
    var aud: AudienceClaim? = nil

    /// How far the app's clock may run ahead of this server's for `nbf` and `iat` (RFC 7519
    /// §4.1.5 allows "some small leeway"). Without it, a token the app minted with `nbf` = now
    /// was refused for the second or so this server's clock was behind.
    static let clockSkew: TimeInterval = 60

    func verify(using algorithm: some JWTAlgorithm) throws {
        try exp.verifyNotExpired()
        if let nbf { try nbf.verifyNotBefore(currentDate: Date().addingTimeInterval(Self.clockSkew)) }
        // A token issued in the future (beyond the clock skew allowed) is refused.
        if let iat, iat.value.timeIntervalSinceNow > Self.clockSkew {
            throw JWTError.claimVerificationFailure(failedClaim: iat, reason: "issued in the future")
        }
    }
}

/// Verifies `Authorization: Bearer <JWT>` (HS256 with the server's secret, or one of the
/// previous secrets while it is rotated) and records the token's subject in the context. Any
/// failure leaves the request anonymous; the routes behind `IsAuthenticatedMiddleware` then answer
/// 401, the same for every reason.
struct TokenAuthenticator: AuthenticatorMiddleware {
    typealias Context = ServerContext
    /// The keys of the current secret and the previous ones, replaced whole on SIGHUP.
    let keyring: TokenKeyring
    /// The name a token's `aud` must hold (`--jwt-audience`); nil: a token with an `aud` is refused.
    var audience: String? = nil

    func authenticate(request: Request, context: ServerContext) async throws -> TokenSubject? {
        guard let token = Self.bearerToken(request), !token.isEmpty, token.utf8.count < 8192 else { return nil }
        // A header or claims naming a member twice ({"sub":"2","sub":"3"}) is refused (see
        // ``JSONMemberNames``): which one counts would depend on the parser.
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
              segments.prefix(2).allSatisfy({ JSONMemberNames.base64URLDecoded($0).map(JSONMemberNames.areUnique) ?? false }),
              segments.allSatisfy(Self.isCanonicalBase64URL),
              Self.claimsAreUTF8WithoutANullAudience(segments[1])
        else { return nil }
        // The header must say what the server checks: HS256, and no `crit` extension it does not
        // know (RFC 7515 §4.1.11). jwt-kit verifies the HMAC with the one key whatever `alg` says.
        guard let header = try? DefaultJWTParser().parse(Array(token.utf8), as: AccessClaims.self).header,
              header.alg == "HS256", header.crit == nil else { return nil }
        var verified: AccessClaims?
        for collection in keyring.current where verified == nil {
            verified = try? await collection.verify(token, as: AccessClaims.self)
        }
        guard let claims = verified else { return nil }
        if let aud = claims.aud {
            guard let audience, aud.value.contains(audience) else { return nil }
        }
        let sub = claims.sub.value
        // A decimal id, nothing else: no sign, no spaces, no leading zeros.
        guard let id = Int64(sub), id > 0, String(id) == sub else { return nil }
        context.caller.userId = id
        return TokenSubject(userId: id)
    }

    /// Whether the claims are UTF-8 (RFC 7519 §7.2, RFC 8259 §8.1: bytes of Latin-1 were read as
    /// they came) and hold no `"aud": null`, which the claims' decoding reads as no `aud` at all:
    /// a token that names an audience, even a null one, must name this server's (outside server test).
    static func claimsAreUTF8WithoutANullAudience(_ segment: Substring) -> Bool {
        guard let bytes = JSONMemberNames.base64URLDecoded(segment), String(validating: bytes, as: UTF8.self) != nil,
              let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else { return false }
        return !(object["aud"] is NSNull)
    }

    /// Whether `segment` is base64url as RFC 7515 writes it: the URL-safe alphabet, no padding,
    /// and no stray bits in its last character. A decoder that ignores those bits accepted one
    /// signature written four ways (and with a trailing `=`): the same token under several
    /// spellings, which anything keyed on a token's text (a deny-list, a replay cache) would miss.
    static func isCanonicalBase64URL(_ segment: Substring) -> Bool {
        guard let bytes = JSONMemberNames.base64URLDecoded(segment) else { return false }
        let encoded = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return encoded == segment
    }

    /// The token of `Authorization: Bearer <token>`; the scheme's name is case-insensitive (RFC 9110
    /// §11.1), so `bearer` and `BEARER` are read too.
    static func bearerToken(_ request: Request) -> String? {
        guard let value = request.headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}

/// Mints and checks tokens with the server's secret.
public struct TokenKeys: Sendable {
    let keys: JWTKeyCollection

    /// Keys for HS256 with `secret`.
    public static func hs256(secret: [UInt8]) async -> TokenKeys {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return TokenKeys(keys: keys)
    }

    /// A token for `userId` that expires after `ttl` seconds (for development and tests).
    ///
    /// `iat` and `exp` are whole seconds: RFC 7519 allows a fraction, but strict JWT libraries
    /// (and people reading the token) expect integers, as the app's own tokens have them.
    public func mint(userId: Int64, ttl: Int64, now: Date = Date()) async throws -> String {
        let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = AccessClaims(sub: SubjectClaim(value: String(userId)),
                                  exp: ExpirationClaim(value: now.addingTimeInterval(TimeInterval(ttl))),
                                  iat: IssuedAtClaim(value: now), nbf: nil)
        return try await keys.sign(claims)
    }
}
