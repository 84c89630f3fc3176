import Testing
import TrackCore

/// `WiFiNetwork`: the file the setup keeps it in for trackd-web, and the text a phone's camera joins it from.
struct WiFiNetworkTests {
    @Test func readsBackTheFileItWrites() {
        let network = WiFiNetwork(name: "Car AB-123", passphrase: " pass#word 1 ")
        #expect(String(decoding: network.fileContents, as: UTF8.self) == "Car AB-123\n pass#word 1 \n")
        #expect(WiFiNetwork(file: network.fileContents) == network)
    }

    @Test(arguments: ["", "\n", "Car AB-123\n", "Car AB-123", "\npassword\n"])
    func refusesAFileWithoutANameAndAPassphrase(_ contents: String) {
        #expect(WiFiNetwork(file: Array(contents.utf8)) == nil)
    }

    @Test func escapesWhatTheJoinTextsGrammarReserves() {
        let network = WiFiNetwork(name: #"Tamm;GmbH:"Car""#, passphrase: #"a\b,c"#)
        #expect(network.joinText == #"WIFI:T:WPA;S:Tamm\;GmbH\:\"Car\";P:a\\b\,c;;"#)
    }
}
