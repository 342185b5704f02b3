package fsutil

// OnWait, when set, is called with the folder when LockDir or
// LockDirShared must wait for another process's lock, before waiting. The
// commands set it to say what they wait for; tests, to act while a command
// waits.
var OnWait func(dir string)
