import Testing
@testable import TrackWeb

struct PairFormTests {
    @Test func readsThePercentEncodedNameAndCode() {
        let form = PairForm(urlEncoded: "code=1234+5678&name=Anna%27s+phone+%C3%9C")
        #expect(form == PairForm(code: "1234 5678", name: "Anna's phone Ü"))
    }

    @Test func leavesMissingFieldsEmpty() {
        #expect(PairForm(urlEncoded: "name=x") == PairForm(code: "", name: "x"))
        #expect(PairForm(urlEncoded: "") == PairForm(code: "", name: ""))
    }
}
