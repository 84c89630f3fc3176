/// A UK postcode as Royal Mail writes them (`SW1A 1AA`, `M1 1AE`, `B33 8TH`, `CR2 6XH`, `DN55 1PT`, `GIR 0AA`),
/// found in an address's text: an outward code of one or two letters, a digit, and a letter or digit, then the
/// inward code of a digit and two letters. Upper or lower case, with or without the space.
public enum UKPostcode {
    /// Whether `text` holds a postcode as a word of its own.
    public static func contains(_ text: String) -> Bool {
        let words = text.uppercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
        for (index, word) in words.enumerated() {
            if isPostcode(word) { return true }
            if index + 1 < words.count, isOutward(word), isInward(words[index + 1]) { return true }
        }
        return false
    }

    /// `SW1A1AA` written without its space, or `GIR0AA`.
    static func isPostcode(_ word: String) -> Bool {
        guard word.count >= 5, word.count <= 7 else { return false }
        return isOutward(String(word.dropLast(3))) && isInward(String(word.suffix(3)))
    }

    /// `SW1A`, `M1`, `B33`, `CR2`, `DN55`, `GIR`.
    static func isOutward(_ code: String) -> Bool {
        if code == "GIR" { return true }
        let characters = Array(code)
        var index = 0
        var letters = 0
        while index < characters.count, letters < 2, isASCIILetter(characters[index]) {
            index += 1
            letters += 1
        }
        guard letters >= 1, index < characters.count, characters[index].isASCII, characters[index].isNumber else { return false }
        index += 1
        if index < characters.count, characters[index].isASCII, characters[index].isNumber || isASCIILetter(characters[index]) {
            index += 1
        }
        return index == characters.count
    }

    /// `1AA`, `0AA`.
    static func isInward(_ code: String) -> Bool {
        let characters = Array(code)
        return characters.count == 3 && characters[0].isASCII && characters[0].isNumber
            && isASCIILetter(characters[1]) && isASCIILetter(characters[2])
    }

    private static func isASCIILetter(_ character: Character) -> Bool {
        character.isASCII && character.isLetter
    }
}
