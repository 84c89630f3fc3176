/// u-blox UBX frames between the sentences: recognised by their sync bytes, length and checksum, skipped whole.
extension NMEAFramer {
    /// Collects a candidate UBX frame: `B5 62 class id len(2, LE) payload ck_a ck_b`.
    /// A frame whose sync, length or checksum is wrong was not a frame: its bytes are scanned again for text.
    mutating func continueBinaryFrame(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            frame.append(byte)
            offset += 1
            index += 1
            if frame.count == 2 && byte != 0x62 {
                return rejectFrame(consumedUpTo: index)
            }
            if frame.count == 6 {
                let length = Int(frame[4]) | Int(frame[5]) << 8
                if length > configuration.maxBinaryPayload {
                    return rejectFrame(consumedUpTo: index)
                }
            }
            if frame.count >= 8 {
                let length = Int(frame[4]) | Int(frame[5]) << 8
                if frame.count == length + 8 {
                    if ubxChecksumMatches() {
                        statistics.binaryFrames += 1
                        for byte in frame where byte == .lineFeed { line += 1 }
                        frame.removeAll(keepingCapacity: true)
                        state = .hunting
                        return index
                    }
                    return rejectFrame(consumedUpTo: index)
                }
            }
        }
        return index
    }

    func ubxChecksumMatches() -> Bool {
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in frame[2..<(frame.count - 2)] {
            a &+= byte
            b &+= a
        }
        return a == frame[frame.count - 2] && b == frame[frame.count - 1]
    }

    /// Not a UBX frame after all: the sync byte is junk, the rest goes through the text scanner again.
    mutating func rejectFrame(consumedUpTo index: Int) -> Int {
        offset -= frame.count - 1
        statistics.junkBytes += 1
        rescan = Array(frame.dropFirst())
        frame.removeAll(keepingCapacity: true)
        state = .hunting
        return index
    }
}
