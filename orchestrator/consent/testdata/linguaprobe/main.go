// Command probe measures what github.com/pemistahl/lingua-go would cost
// the consent classifier (issue 37): binary size, load time, memory and
// time per detection with every language, in high- and low-accuracy mode,
// and what it makes of one-word replies. It is its own module, outside
// searchbench's, so that lingua-go is no dependency of the project:
//
//	cd orchestrator/consent/testdata/linguaprobe
//	go build -o probe . && ls -l probe
//	/usr/bin/time -v ./probe       # high accuracy, models preloaded
//	/usr/bin/time -v ./probe low   # low accuracy mode
//
// measured.txt holds one run's output (docs/consent.md quotes it).
package main

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/pemistahl/lingua-go"
)

func main() {
	t0 := time.Now()
	var b lingua.LanguageDetectorBuilder
	if len(os.Args) > 1 && os.Args[1] == "low" {
		b = lingua.NewLanguageDetectorBuilder().FromAllLanguages().WithLowAccuracyMode().WithPreloadedLanguageModels()
	} else {
		b = lingua.NewLanguageDetectorBuilder().FromAllLanguages().WithPreloadedLanguageModels()
	}
	d := b.Build()
	load := time.Since(t0)
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	texts := []string{"ja", "oui", "yes please", "sí, claro", "nein danke", "da", "jo", "non grazie", "yes, but stick to government sources", "tak", "ok", "nee", "ne", "evet", "hayır", "はい", "아니요", "no gracias", "ano", "nie", "kyllä", "igen", "nem"}
	t1 := time.Now()
	n := 0
	for i := 0; i < 20; i++ {
		for _, s := range texts {
			l, ok := d.DetectLanguageOf(s)
			if i == 0 {
				fmt.Printf("%-40q %v %v\n", s, l, ok)
			}
			n++
		}
	}
	per := time.Since(t1) / time.Duration(n)
	fmt.Printf("load %v heap %d MB sys %d MB per-detect %v\n", load, m.HeapAlloc>>20, m.Sys>>20, per)
}
