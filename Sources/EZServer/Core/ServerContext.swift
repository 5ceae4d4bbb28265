import Hummingbird
import NIOCore
import HummingbirdAuth
import Synchronization

/// Who a valid token says is calling: the token's `sub`, not yet checked against the ledger
/// (that happens inside the request's own snapshot, so the check and the data agree).
public struct TokenSubject: Sendable, Equatable {
    /// The user id the token was issued for.
    public var userId: Int64
}

/// The request context of every route: the framework's storage plus the caller's identity,
/// filled by ``TokenAuthenticator``.
public struct ServerContext: AuthRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The token's subject once the token was verified; nil for anonymous requests.
    public var identity: TokenSubject?
    /// Shared by every copy of this context: lets the access log, outside the authenticator,
    /// name the caller.
    let caller = CallerRecord()
    /// The request's connection: a response body waits on its buffered bytes (``UnsentResponses``).
    let channel: any Channel

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.identity = nil
        self.channel = source.channel
    }
}

/// The caller's user id as the authenticator learned it, for the access log.
final class CallerRecord: Sendable {
    private let value = Mutex<Int64?>(nil)
    /// The verified token's user id, nil for anonymous requests.
    var userId: Int64? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
