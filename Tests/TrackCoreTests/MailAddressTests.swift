import Testing
import TrackCore

/// The addresses a report may be mailed to: plain `local@domain`, nothing a header or msmtp's command line could
/// read as more.
struct MailAddressTests {
    @Test func aPlainAddressIsTakenAsItIs() throws {
        let address = try MailAddress("first.last+mileage@mail.example.org")
        #expect(address.text == "first.last+mileage@mail.example.org")
        #expect(address.domain == "mail.example.org")
    }

    @Test(arguments: ["", "driver", "driver@", "@example.org", "a@b@example.org", "Driver <driver@example.org>",
                      "driver@example.org, boss@example.org", "driver @example.org", "-oQ/tmp@example.org",
                      "jüri@example.org", "driver@exa_mple.org", "driver@-example.org", "driver@example..org",
                      "driver@example.org\r\nBcc: x@example.net"])
    func anythingElseIsRefusedWithTheReason(_ text: String) {
        #expect(throws: MailAddressError.self) { try MailAddress(text) }
    }

    @Test func theErrorNamesTheTextAndShowsAnAddress() {
        #expect(throws: MailAddressError.invalid("Driver <driver@example.org>", reason: "it has a space, a control "
                                                 + "character or a letter beyond ASCII")) {
            try MailAddress("Driver <driver@example.org>")
        }
        let error = MailAddressError.invalid("driver", reason: "it needs one '@'")
        #expect(error.description.contains("'driver'") && error.description.contains("driver@example.org"))
    }
}
