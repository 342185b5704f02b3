package quantity

import (
	"sort"
	"strings"

	units "github.com/bcicen/go-units"
)

// unit is a unit of measurement a number may carry, with the conversion
// to its dimension's base unit.
type unit struct {
	dim, base string
	factor    float64 // base = value × factor + offset
	offset    float64
}

func (u unit) convert(x float64) float64 { return x*u.factor + u.offset }

// unitName is one way of writing a unit: a name (matched without case) or
// a symbol (matched exactly).
type unitName struct {
	text   string
	symbol bool
	u      unit
}

// unitNames holds every spelling, longest first, so that "km" wins over
// "k" and "square kilometres" over "kilometres".
var unitNames []unitName

// dims maps go-units' quantities to a base unit.
var dims = map[string]units.Unit{
	"length": units.Meter, "mass": units.Gram, "time": units.Second, "volume": units.Liter,
	"energy": units.Joule, "power": units.Watt, "pressure": units.Pascal, "bytes": units.Byte,
}

// skipSymbols are unit symbols that read as ordinary words or other
// things next to a number: "5 in 2020", "3 at", "10 d", "1 st".
var skipSymbols = map[string]bool{
	"in": true, "at": true, "d": true, "st": true, "t": true, "gr": true, "dr": true, "Ba": true,
	"cs": true, "ks": true, "Ms": true, "Gs": true, "Ts": true, "B": true, "M": true, "K": true,
	"F": true, "C": true, "Mg": true, "Tl": true, "Ml": true, "Gl": true, "fur": true, "lea": true,
}

// skipNames are unit names that are no unit next to a number in prose.
var skipNames = map[string]bool{"score": true, "scores": true, "century": true, "centurys": true, "slug": true, "slugs": true}

func init() {
	add := func(text string, symbol bool, u unit) {
		if text == "" {
			return
		}
		unitNames = append(unitNames, unitName{text, symbol, u})
	}
	for _, x := range units.All() {
		base, ok := dims[x.Quantity]
		if !ok || x.Name == "ton" {
			continue // go-units' ton is the long ton; news pages mean the tonne (below)
		}
		var u unit
		if x.Name == base.Name {
			u = unit{dim: dimName(x.Quantity), base: base.Symbol, factor: 1}
		} else {
			v, err := units.ConvertFloat(1, x, base)
			if err != nil {
				continue
			}
			u = unit{dim: dimName(x.Quantity), base: base.Symbol, factor: v.Float()}
		}
		for _, n := range x.Names() {
			if n == x.Symbol {
				if !skipSymbols[n] {
					add(n, true, u)
				}
				continue
			}
			if skipNames[strings.ToLower(n)] {
				continue
			}
			add(n, false, u)
			if !strings.HasSuffix(n, "s") && n == x.Name {
				add(x.PluralName(), false, u)
			}
		}
		// British spellings go-units lacks: kilometre(s), millilitre(s).
		if strings.HasSuffix(x.Name, "meter") && x.Quantity == "length" {
			b := strings.TrimSuffix(x.Name, "meter") + "metre"
			add(b, false, u)
			add(b+"s", false, u)
		}
	}
	// Temperatures (converted by formula) and angles, which go-units
	// spells only as bare letters.
	kelvin := unit{dim: "temperature", base: "K", factor: 1}
	celsius := unit{dim: "temperature", base: "K", factor: 1, offset: 273.15}
	fahrenheit := unit{dim: "temperature", base: "K", factor: 5.0 / 9, offset: 273.15 - 32*5.0/9}
	degree := unit{dim: "angle", base: "°", factor: 1}
	for _, s := range []string{"°C", "° C", "℃", "ºC"} {
		add(s, true, celsius)
	}
	for _, s := range []string{"°F", "° F", "℉", "ºF"} {
		add(s, true, fahrenheit)
	}
	add("K", true, kelvin)
	for _, n := range []string{"degrees celsius", "degree celsius", "degrees centigrade", "degree centigrade", "celsius", "centigrade"} {
		add(n, false, celsius)
	}
	for _, n := range []string{"degrees fahrenheit", "degree fahrenheit", "fahrenheit"} {
		add(n, false, fahrenheit)
	}
	for _, n := range []string{"kelvin", "kelvins", "degrees kelvin"} {
		add(n, false, kelvin)
	}
	// Tonnes and their multiples, kilos and lbs, which go-units lacks: "5
	// Mt" is five million tonnes. A ton is read as the tonne.
	mass := func(f float64) unit { return unit{dim: "mass", base: units.Gram.Symbol, factor: f} }
	for _, n := range []string{"tonne", "tonnes", "ton", "tons", "metric ton", "metric tons", "metric tonne", "metric tonnes"} {
		add(n, false, mass(1e6))
	}
	for sym, f := range map[string]float64{"kt": 1e9, "Mt": 1e12, "Gt": 1e15} {
		add(sym, true, mass(f))
	}
	for n, f := range map[string]float64{"kilotonne": 1e9, "megatonne": 1e12, "gigatonne": 1e15} {
		add(n, false, mass(f))
		add(n+"s", false, mass(f))
	}
	add("kilo", false, mass(1e3))
	add("kilos", false, mass(1e3))
	if lb, err := units.ConvertFloat(1, units.Pound, units.Gram); err == nil {
		add("lbs", true, mass(lb.Float()))
	}
	add("°", true, degree)
	for _, n := range []string{"degrees", "degree", "deg"} {
		add(n, false, degree)
	}
	sort.SliceStable(unitNames, func(i, j int) bool { return len(unitNames[i].text) > len(unitNames[j].text) })
}

func dimName(q string) string {
	if q == "bytes" {
		return "data"
	}
	return q
}

// unitAt finds the longest unit spelling at p (after at most one space, or
// glued to the number) that ends at a word boundary.
func unitAt(text string, p int) (unit, int) {
	for _, un := range unitNames {
		n, ok := unitPhraseAt(text, p, un.text, un.symbol)
		if ok {
			return un.u, n
		}
	}
	return unit{}, 0
}

func unitPhraseAt(text string, p int, phrase string, exact bool) (int, bool) {
	q := p
	if q < len(text) && text[q] == ' ' {
		q++
	} else if strings.HasPrefix(text[q:], "\u00a0") || strings.HasPrefix(text[q:], "\u202f") {
		q += 2
		if strings.HasPrefix(text[q-2:], "\u202f") {
			q++
		}
	}
	if len(text)-q < len(phrase) {
		return 0, false
	}
	got := text[q : q+len(phrase)]
	if exact && got != phrase || !exact && !strings.EqualFold(got, phrase) {
		return 0, false
	}
	end := q + len(phrase)
	if last := phrase[len(phrase)-1]; isWordByte(last) && end < len(text) && (isWordByte(text[end])) {
		return 0, false
	}
	return end - p, true
}
