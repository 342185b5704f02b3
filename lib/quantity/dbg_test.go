package quantity

import "testing"

func TestDebug(t *testing.T) {
	for _, s := range []string{"1.2 million", "€3bn", "3,5 %", "twenty-five", "25 bp", "5 km", "2 August 2024", "August 2nd, 2024", "2. August 2024", "2 de agosto de 2024", "2024-08-02", "2024-W12", "1,234,567", "1.234,5", "373.15 K", "100 °C", "100 degrees celsius", "the 16th century", "the 1990s", "two and a half million", "three quarters", "one hundred and five", "10–12 years", "over 1,100", "$3m", "US$ 5.2 billion", "about 384,400 km", "the fifteenth century", "Season 17", "March 30, 1990", "14 december 1972", "December 1972", "07xxx", "A100 v1.2.3 COVID-19", "5 out of 10", "03/04/2021", "week 12 of 2024", "2 ago 2024", "45-42", "in 1984", "79 AD", "480 BC", "£5", "5 pounds", "12 percent", "one third", "a half", "3.99 degrees", "263 pages", "the first iPhone"} {
		t.Logf("%-32q %v", s, Find(s))
	}
}
