@testable import EZServer
import XCTest

/// The check behind refusing tokens that name a claim twice: top-level names only, escapes read,
/// strings that hold braces, commas or quotes not taken for structure.
final class JSONMemberNamesTests: XCTestCase {
    func testRepeatedTopLevelNamesAreFoundWhateverTheStringsHold() {
        func unique(_ json: String) -> Bool { JSONMemberNames.areUnique(Array(json.utf8)) }
        XCTAssertTrue(unique(#"{"sub":"2","exp":1}"#))
        XCTAssertTrue(unique(#"{"sub":"a,\"sub\":{","exp":1}"#), "a string holding a quote, a comma and a brace")
        XCTAssertTrue(unique(#"{"a":{"x":1,"x":2},"b":[{"x":3}]}"#), "nested objects are the claims' own business")
        XCTAssertTrue(unique(#"{ "sub" : "2" , "exp" : 1 }"#))
        XCTAssertFalse(unique(#"{"sub":"2","exp":1,"sub":"3"}"#))
        XCTAssertFalse(unique(#"{"sub":"2","s\u0075b":"3"}"#), "the same name written with an escape")
        XCTAssertFalse(unique(#"["sub","sub"]"#), "not an object")
        XCTAssertFalse(unique(#"{"sub":"2""#), "cut short")
        XCTAssertEqual(JSONMemberNames.base64URLDecoded("eyJhIjoxfQ").map { String(decoding: $0, as: UTF8.self) }, #"{"a":1}"#)
    }
}
