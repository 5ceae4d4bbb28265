import ArgumentParser
import EZServer
import Foundation

extension EZReport {
    /// `ezreport token`: mints a bearer token for `ezreport serve` (development and tests only:
    /// in production the app's backend signs tokens with the same secret).
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract: "Mint a bearer token for 'ezreport serve' (for development and tests).",
            discussion: """
                Example:
                  curl -H "Authorization: Bearer $(ezreport token --user 42 --jwt-secret-file secret.key)" \\
                      http://127.0.0.1:8080/v1/users/42/statement/2026-10.pdf -o statement.pdf
                """
        )

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The user id the token is for (its 'sub').", valueName: "id"))
        var user: Int64

        @Option(name: .customLong("jwt-secret-file"), help: ArgumentHelp("File holding the HS256 secret.", valueName: "file"))
        var jwtSecretFile: String

        @Option(name: .long, help: ArgumentHelp("How long the token lasts: seconds, or a number with s, m, h or d.", valueName: "duration"))
        var ttl: String = "1h"

        func validate() throws {
            guard user > 0 else { throw ValidationError("invalid --user \(user): expected a positive user id") }
            guard Self.seconds(ttl) != nil else { throw ValidationError("invalid --ttl '\(ttl)': expected e.g. 90, 15m, 1h or 7d") }
        }

        func run() async throws {
            do {
                let secret = try JWTSecretFile.read(jwtSecretFile)
                let keys = await TokenKeys.hs256(secret: secret)
                print(try await keys.mint(userId: user, ttl: Self.seconds(ttl) ?? 3600))
            } catch {
                throw fail(error)
            }
        }

        /// `90`, `90s`, `15m`, `1h`, `7d` as seconds (positive, at most a year).
        static func seconds(_ text: String) -> Int64? {
            let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
            var digits = Substring(text)
            var unit: Int64 = 1
            if let last = text.last, let u = units[last] { unit = u; digits = digits.dropLast() }
            guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let n = Int64(digits), n > 0, n <= 366 * 86400 / unit else { return nil }
            return n * unit
        }
    }
}
