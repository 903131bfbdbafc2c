package main

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"emr/internal/config"
	"emr/internal/database"
)

// tighten makes files a start finds private when they were made readable by others (by an
// earlier version, or a copy): the SQLite database and its -wal and -shm files, the key
// file, the scheduled backups and their folder. The database's folder is left as it is (it
// may be shared; emr makes its own 0700).
func tighten(cfg config.Config) {
	var files, dirs []string
	if engine, path, err := database.ParseURL(cfg.DatabaseURL); err == nil && engine == database.SQLite && path != ":memory:" {
		files = append(files, path, path+"-wal", path+"-shm")
	}
	files = append(files, cfg.KeyFile())
	if cfg.BackupDir != "" {
		dirs = append(dirs, cfg.BackupDir)
		if entries, err := os.ReadDir(cfg.BackupDir); err == nil {
			for _, e := range entries {
				if !e.IsDir() {
					files = append(files, filepath.Join(cfg.BackupDir, e.Name()))
				}
			}
		}
	}
	for _, f := range files {
		restrict(f, 0o600)
	}
	for _, d := range dirs {
		restrict(d, 0o700)
	}
}

// restrict takes away what others than the owner may do with path.
func restrict(path string, mode fs.FileMode) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && info.Mode().Perm()&0o077 == 0) {
		return
	}
	if err == nil {
		err = os.Chmod(path, info.Mode().Perm()&mode)
	}
	if err != nil {
		slog.Warn("could not make a file private", "path", path, "err", err)
		return
	}
	slog.Info("made a file private to its owner", "path", path)
}
