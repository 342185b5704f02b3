// Package config holds the project's shipped configuration files, embedded
// so the binary works from any directory; a file of the same name on disk
// overrides its embedded copy where a command says so.
package config

import _ "embed"

// ProvidersYAML is config/providers.yaml: the providers' rate limits and
// prices, each with its source and date.
//
//go:embed providers.yaml
var ProvidersYAML []byte
