import Testing
@testable import TrackCore

/// Text from the log as a terminal shows it: no control character reaches the terminal but the line break and the
/// tab; everything else stays as it is.
struct TerminalSafeTextTests {
    @Test func aTitleSequenceAndAClearScreenFromThePageBecomeVisibleSigns() {
        let purpose = "Visit\u{1B}]0;owned\u{07}\u{1B}[2J"
        #expect(purpose.terminalSafe == "Visit␛]0;owned␇␛[2J")
        #expect(!purpose.terminalSafe.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test func carriageReturnsDeleteAndC1ControlsAreShownNotObeyed() {
        #expect("paid\r£0.00".terminalSafe == "paid␍£0.00")
        #expect("a\u{7F}b".terminalSafe == "a␡b")
        #expect("x\u{9B}2Jy".terminalSafe == "x\u{FFFD}2Jy", "C1's CSI")
        #expect("\u{00}".terminalSafe == "␀")
    }

    @Test func linesTabsAndEveryOtherLetterStayAsTheyAre() {
        for text in ["", "Site visit, Tartu depot", "line one\nline two\tcolumn", "Müller GmbH · Ülemiste → Sadama 25 😀",
                     "\u{200B}zero width", "£10.00 · tax year from 2025-04-06"] {
            #expect(text.terminalSafe == text, "\(text)")
        }
    }
}
