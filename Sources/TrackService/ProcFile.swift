import CFileSystem
import TrackInput

/// The small files of `/proc` the daemon reads about itself and the kernel (`statm`, `maps`, `locks`), and
/// trackd-stick its mounts (`self/mountinfo`).
public enum ProcFile {
    /// A small file of `/proc`, whole; `nil` when it cannot be read.
    public static func read(_ path: String) -> String? {
        guard var file = try? InputFile(path: path, chunkSize: 16_384) else { return nil }
        var bytes: [UInt8] = []
        do {
            while try file.next({ bytes.append(contentsOf: $0) }) {}
        } catch {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A device number (`st_dev`, `st_rdev`) as its major and minor, the two numbers `/proc/locks` and
    /// `/proc/self/mountinfo` print (glibc's `major` and `minor`).
    public static func majorMinor(_ device: UInt64) -> (major: UInt64, minor: UInt64) {
        (UInt64(trackd_device_major(device)), UInt64(trackd_device_minor(device)))
    }
}
