@main struct TrackDaemon { static func main() {} }
