// Command groundgen writes the equal-values set of the grounding scorer
// (issue 39): eval/score/testdata/grounding-values.yaml, pairs of a search
// result's snippet, worded as a news, encyclopedia, statistics-office or
// company page words it, and a Phase 2 bullet that writes one of the
// snippet's values in another notation: a scale written short or long, a
// decimal comma, a fraction in words for a percentage, basis points for
// percentage points, a converted unit, a currency converted at the rate
// the snippet gives, a date in the source's locale order, an ISO date, a
// calendar week, a rate's period spelt another way, a threshold the value
// does meet. Every bullet is grounded: a scorer that raises a finding on
// one raises a false alarm.
//
// The set is written once and never edited after its first measurement
// (the command refuses to overwrite it); README.md beside this file
// records that measurement:
//
//	go run ./eval/score/groundgen -out eval/score/testdata/grounding-values.yaml
//
// The output depends on nothing but the tables below.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Notations: what differs between the snippet's and the bullet's writing.
const (
	scale        = "scale"          // 30 billion / 30bn, 5 million tonnes / 5 Mt, Milliarden
	decimalComma = "decimal-comma"  // 41,2 Prozent / 41.2%
	fraction     = "fraction-words" // two thirds / 67%
	basisPoints  = "basis-points"   // 50 basis points / 0.5 percentage points
	conversion   = "unit-conversion"
	currencyRate = "currency-rate" // a currency converted at the rate the snippet gives
	localeDate   = "locale-date"   // 03/09/2024 on a .uk page / 3 September 2024
	isoDate      = "iso-date"
	week         = "calendar-week" // 2024-W36 / week 36 of 2024 / KW 36
	period       = "rate-period"   // $500 a month / $500 per month
	threshold    = "threshold"     // the bullet says a threshold the snippet's value meets was met
	unitSpelling = "unit-spelling" // 118 kg / 118 kilograms
)

// seed is one search result and the bullets that restate one of its
// values.
type seed struct {
	notation       string
	url, title     string
	snippet        string
	bullets        []string
	same           []string // per bullet: the two writings of the value
	sourceLanguage string   // the snippet's language, when not English
}

var seeds = []seed{
	// Scales.
	{notation: scale, url: "https://www.reuters.com/business/energy/equinor-second-quarter-results-2024-07-24/",
		title:   "Equinor Q2 profit falls as gas prices ease, keeps buybacks | Reuters",
		snippet: "OSLO, July 24 (Reuters) - Equinor reported adjusted operating income of $6.9 billion for the second quarter, and said it would buy back shares worth NOK 30 billion over the year.",
		bullets: []string{"Equinor plans to buy back NOK 30bn of shares over the year.", "Equinor's adjusted operating income was $6.9bn in the second quarter."},
		same:    []string{"NOK 30 billion / NOK 30bn", "$6.9 billion / $6.9bn"}},
	{notation: scale, url: "https://www.microsoft.com/en-us/investor/earnings/fy-2024-q3/press-release-webcast",
		title:   "Microsoft Fiscal Year 2024 Third Quarter Earnings Conference Call",
		snippet: "Revenue was $61.9 billion and increased 17% (up 17% in constant currency). Operating income was $27.6 billion and increased 23%.",
		bullets: []string{"Microsoft's quarterly revenue reached US$61.9bn, up 17%.", "Operating income rose 23% to 27.6 billion US dollars."},
		same:    []string{"$61.9 billion / US$61.9bn", "$27.6 billion / 27.6 billion US dollars"}},
	{notation: scale, url: "https://github.blog/news-insights/octoverse/octoverse-2023/",
		title:   "Octoverse: The state of open source and rise of AI in 2023 - The GitHub Blog",
		snippet: "Developers made 301 million total contributions to open source projects on GitHub in 2023, and the fastest-growing projects passed 120,000 stars.",
		bullets: []string{"Developers made 301M contributions to open source projects on GitHub in 2023.", "The fastest-growing projects passed 120k stars."},
		same:    []string{"301 million / 301M", "120,000 / 120k"}},
	{notation: scale, url: "https://en.wikipedia.org/wiki/Berlin",
		title:   "Berlin - Wikipedia",
		snippet: "Berlin is the capital and largest city of Germany, by both area and population. With 3,878,100 residents, it is the most populous city of the European Union.",
		bullets: []string{"Berlin has about 3.9 million residents."},
		same:    []string{"3,878,100 / about 3.9 million"}},
	{notation: scale, url: "https://worldsteel.org/media/press-releases/2024/december-2023-crude-steel-production-and-2023-global-totals/",
		title:   "December 2023 crude steel production and 2023 global totals | worldsteel",
		snippet: "World crude steel production was 1,888.2 million tonnes (Mt) in 2023. China produced 1,019.1 Mt in 2023, flat on 2022. India produced 140.2 Mt, up 11.8%.",
		bullets: []string{"World crude steel output was 1,888.2 Mt in 2023.", "India produced 140.2 million tonnes of crude steel in 2023, up 11.8%."},
		same:    []string{"1,888.2 million tonnes / 1,888.2 Mt", "140.2 Mt / 140.2 million tonnes"}},
	{notation: scale, url: "https://www.iea.org/reports/coal-2023/executive-summary",
		title:   "Executive summary – Coal 2023 – Analysis - IEA",
		snippet: "Global coal demand is set to reach 8.5 billion tonnes in 2023, a new record. Indonesia's exports rose to 5 million tonnes a month in the third quarter.",
		bullets: []string{"Global coal demand was set to hit 8.5 Gt in 2023.", "Indonesia exported 5 Mt of coal a month in the third quarter."},
		same:    []string{"8.5 billion tonnes / 8.5 Gt", "5 million tonnes a month / 5 Mt a month"}},
	{notation: scale, url: "https://www.tagesschau.de/wirtschaft/unternehmen/siemens-quartalszahlen-100.html",
		title:          "Siemens steigert Gewinn deutlich | tagesschau.de",
		snippet:        "Siemens hat im abgelaufenen Geschäftsjahr einen Gewinn von 8,5 Milliarden Euro erzielt. Der Umsatz stieg auf 77,8 Milliarden Euro, teilte der Konzern in München mit.",
		bullets:        []string{"Siemens earned a profit of €8.5 billion in its last financial year.", "Siemens' revenue rose to €77.8bn."},
		same:           []string{"8,5 Milliarden Euro / €8.5 billion", "77,8 Milliarden Euro / €77.8bn"},
		sourceLanguage: "de"},
	{notation: scale, url: "https://www.handelsblatt.com/politik/deutschland/haushalt-bund-stellt-zehn-milliarden-bereit/",
		title:          "Haushalt: Bund stellt 10 Mrd. Euro für Intel-Werk bereit - Handelsblatt",
		snippet:        "Die Bundesregierung stellt für die Ansiedlung des Chipherstellers in Magdeburg knapp 10 Mrd. Euro an Subventionen bereit; insgesamt plant Intel Investitionen von 30 Milliarden Euro.",
		bullets:        []string{"Intel planned investments of EUR 30 billion in Magdeburg.", "The federal government set aside almost €10bn in subsidies."},
		same:           []string{"30 Milliarden Euro / EUR 30 billion", "10 Mrd. Euro / €10bn"},
		sourceLanguage: "de"},
	{notation: scale, url: "https://www.bbc.co.uk/news/business-68345643",
		title:   "HSBC profits hit record of $30.3bn - BBC News",
		snippet: "HSBC made a record annual profit of $30.3bn (£24bn) in 2023, up by $13bn on the previous year, helped by higher interest rates.",
		bullets: []string{"HSBC's 2023 profit was a record $30.3 billion.", "HSBC's annual profit rose by 13 billion dollars in 2023."},
		same:    []string{"$30.3bn / $30.3 billion", "$13bn / 13 billion dollars"}},

	// Decimal commas.
	{notation: decimalComma, url: "https://www.destatis.de/DE/Presse/Pressemitteilungen/2025/01/PD25_020_611.html",
		title:          "Inflationsrate im Dezember 2024 bei +2,6 % - Statistisches Bundesamt",
		snippet:        "Die Inflationsrate in Deutschland lag im Dezember 2024 bei +2,6 %. Im Jahresdurchschnitt 2024 erhöhten sich die Verbraucherpreise um 2,2 % gegenüber 2023.",
		bullets:        []string{"German inflation was 2.6% in December 2024.", "Consumer prices in Germany rose 2.2 percent on average in 2024."},
		same:           []string{"2,6 % / 2.6%", "2,2 % / 2.2 percent"},
		sourceLanguage: "de"},
	{notation: decimalComma, url: "https://www.bundeswahlleiterin.de/info/presse/mitteilungen/europawahl-2024/29_24_endgueltiges-ergebnis.html",
		title:          "Europawahl 2024: Endgültiges Ergebnis - Die Bundeswahlleiterin",
		snippet:        "Die Wahlbeteiligung lag bei 64,8 Prozent. Die CDU erreichte 23,7 Prozent der Stimmen, die AfD 15,9 Prozent.",
		bullets:        []string{"Turnout in Germany's 2024 European election was 64.8%.", "The AfD won 15.9% of the vote."},
		same:           []string{"64,8 Prozent / 64.8%", "15,9 Prozent / 15.9%"},
		sourceLanguage: "de"},
	{notation: decimalComma, url: "https://www.insee.fr/fr/statistiques/8292356",
		title:          "Au troisième trimestre 2024, le taux de chômage est quasi stable à 7,4 % - Insee",
		snippet:        "Au troisième trimestre 2024, le nombre de chômeurs au sens du BIT atteint 2,3 millions de personnes. Le taux de chômage est quasi stable à 7,4 % de la population active.",
		bullets:        []string{"France's unemployment rate was 7.4 percent in the third quarter of 2024.", "About 2.3 million people in France were unemployed."},
		same:           []string{"7,4 % / 7.4 percent", "2,3 millions / 2.3 million"},
		sourceLanguage: "fr"},
	{notation: decimalComma, url: "https://elpais.com/economia/2024-01-30/la-economia-espanola-crecio-un-25-en-2023.html",
		title:          "La economía española creció un 2,5% en 2023 | Economía | EL PAÍS",
		snippet:        "El producto interior bruto (PIB) de España creció un 2,5% en 2023, según el avance publicado este martes por el Instituto Nacional de Estadística.",
		bullets:        []string{"Spain's GDP grew 2.5% in 2023."},
		same:           []string{"2,5% / 2.5%"},
		sourceLanguage: "es"},
	{notation: decimalComma, url: "https://www.istat.it/comunicato-stampa/occupati-e-disoccupati-dicembre-2023/",
		title:          "Occupati e disoccupati (dati provvisori) - Dicembre 2023 - Istat",
		snippet:        "A dicembre 2023 il tasso di disoccupazione scende al 7,2 per cento, quello giovanile sale al 20,1 per cento.",
		bullets:        []string{"Italy's unemployment rate fell to 7.2% in December 2023.", "Youth unemployment in Italy rose to 20.1%."},
		same:           []string{"7,2 per cento / 7.2%", "20,1 per cento / 20.1%"},
		sourceLanguage: "it"},

	{notation: decimalComma, url: "https://www.tagesschau.de/inland/regional/bayern/oberbuergermeisterwahl-ergebnis-100.html",
		title:          "Oberbürgermeisterwahl: Amtsinhaber knapp vorn | tagesschau.de",
		snippet:        "Die Wahlbeteiligung lag bei 41,2 Prozent. Die Stadt will bis 2030 insgesamt 2,5 Milliarden Euro in Schulen und den Nahverkehr investieren.",
		bullets:        []string{"Turnout was 41.2 percent.", "The city plans to invest €2.5bn in schools and public transport by 2030."},
		same:           []string{"41,2 Prozent / 41.2 percent", "2,5 Milliarden Euro / €2.5bn"},
		sourceLanguage: "de"},

	// Fractions in words.
	{notation: fraction, url: "https://www.pewresearch.org/politics/2024/04/24/americans-views-of-the-economy/",
		title:   "Americans' views of the economy | Pew Research Center",
		snippet: "Roughly two thirds of Americans say the economy is in only fair or poor shape, while about a third rate economic conditions as excellent or good.",
		bullets: []string{"About 67% of Americans rate the economy as only fair or poor.", "Roughly 33% of Americans rate economic conditions as excellent or good."},
		same:    []string{"two thirds / 67%", "a third / 33%"}},
	{notation: fraction, url: "https://www.nimh.nih.gov/health/statistics/mental-illness",
		title:   "Mental Illness - National Institute of Mental Health (NIMH)",
		snippet: "Mental illnesses are common in the United States. Nearly one in five U.S. adults live with a mental illness.",
		bullets: []string{"Nearly 20% of U.S. adults live with a mental illness."},
		same:    []string{"one in five / 20%"}},
	{notation: fraction, url: "https://www.un.org/development/desa/en/news/population/2018-revision-of-world-urbanization-prospects.html",
		title:   "68% of the world population projected to live in urban areas by 2050, says UN",
		snippet: "Today, 55% of the world's population lives in urban areas, a proportion that is expected to increase to 68% by 2050. Close to half of urban dwellers live in settlements with fewer than 500,000 inhabitants.",
		bullets: []string{"More than half of the world's population lives in urban areas today.", "Close to 50% of urban dwellers live in settlements of fewer than 500,000 people."},
		same:    []string{"55% / more than half", "half / 50%"}},
	{notation: fraction, url: "https://www.who.int/news-room/fact-sheets/detail/obesity-and-overweight",
		title:   "Obesity and overweight - World Health Organization (WHO)",
		snippet: "In 2022, 2.5 billion adults were overweight. Of these, 890 million were living with obesity; about three quarters of the world's obese adults live in low- and middle-income countries.",
		bullets: []string{"Around 75% of the world's obese adults live in low- and middle-income countries."},
		same:    []string{"three quarters / 75%"}},
	{notation: fraction, url: "https://www.theguardian.com/politics/2024/jul/05/labour-landslide-seats",
		title:   "Labour wins landslide with a quarter of seats changing hands | Politics | The Guardian",
		snippet: "Labour won 411 of the 650 seats, while a quarter of all constituencies changed hands, and turnout fell to about 60%.",
		bullets: []string{"About 25% of constituencies changed hands.", "Turnout fell to about three fifths."},
		same:    []string{"a quarter / 25%", "60% / three fifths"}},

	// Basis points against percentage points.
	{notation: basisPoints, url: "https://www.federalreserve.gov/newsevents/pressreleases/monetary20240918a.htm",
		title:   "Federal Reserve Board - Federal Reserve issues FOMC statement",
		snippet: "In light of the progress on inflation and the balance of risks, the Committee decided to lower the target range for the federal funds rate by 1/2 percentage point to 4-3/4 to 5 percent.",
		bullets: []string{"The Fed lowered the federal funds rate target range by 50 basis points."},
		same:    []string{"1/2 percentage point / 50 basis points"}},
	{notation: basisPoints, url: "https://www.reuters.com/markets/us/fed-cuts-rates-by-half-point-2024-09-18/",
		title:   "Fed kicks off easing cycle with big half-point rate cut | Reuters",
		snippet: "The Federal Reserve cut its benchmark rate by 50 basis points on Wednesday, to the 4.75%-5.00% range, its first cut since 2020.",
		bullets: []string{"The Federal Reserve cut its benchmark rate by 0.5 percentage points to 4.75%-5.00%."},
		same:    []string{"50 basis points / 0.5 percentage points"}},
	{notation: basisPoints, url: "https://www.bankofengland.co.uk/monetary-policy-summary-and-minutes/2023/august-2023",
		title:   "Monetary Policy Summary, August 2023 | Bank of England",
		snippet: "At its meeting ending on 2 August 2023, the MPC voted by a majority of 6–3 to increase Bank Rate by 0.25 percentage points, to 5.25%.",
		bullets: []string{"The Bank of England raised Bank Rate by 25 basis points to 5.25% in August 2023."},
		same:    []string{"0.25 percentage points / 25 basis points"}},
	{notation: basisPoints, url: "https://www.ecb.europa.eu/press/pr/date/2024/html/ecb.mp240606~2148ecdb3c.en.html",
		title:   "Monetary policy decisions - European Central Bank",
		snippet: "The Governing Council today decided to lower the three key ECB interest rates by 25 basis points. The deposit facility rate will be reduced to 3.75%.",
		bullets: []string{"The ECB cut its three key interest rates by 0.25 percentage points, taking the deposit rate to 3.75%."},
		same:    []string{"25 basis points / 0.25 percentage points"}},
	{notation: basisPoints, url: "https://www.cnbc.com/2024/04/10/treasury-yields-cpi-inflation.html",
		title:   "10-year Treasury yield jumps after hot inflation report - CNBC",
		snippet: "The yield on the 10-year Treasury jumped 18 basis points to 4.54% after the consumer price index rose 3.5% from a year earlier.",
		bullets: []string{"The 10-year Treasury yield rose 0.18 percentage points to 4.54%."},
		same:    []string{"18 basis points / 0.18 percentage points"}},
	{notation: basisPoints, url: "https://www.rbi.org.in/Scripts/BS_PressReleaseDisplay.aspx?prid=60535",
		title:   "Monetary Policy Statement, 2025-26 - Reserve Bank of India",
		snippet: "The MPC decided to reduce the policy repo rate under the liquidity adjustment facility by 50 bps to 5.50 per cent with immediate effect.",
		bullets: []string{"The RBI cut the repo rate by 0.5 percentage point to 5.5%."},
		same:    []string{"50 bps / 0.5 percentage point"}},

	// Unit conversions between the usual units.
	{notation: conversion, url: "https://www.britannica.com/place/Mount-Everest",
		title:   "Mount Everest | Height, Location, Map, Facts, Climbers, & Deaths | Britannica",
		snippet: "Mount Everest, mountain on the crest of the Great Himalayas of southern Asia. Its elevation is 8,848.86 metres, as measured by China and Nepal in 2020.",
		bullets: []string{"Mount Everest is 29,032 feet high, as measured by China and Nepal in 2020."},
		same:    []string{"8,848.86 metres / 29,032 feet"}},
	{notation: conversion, url: "https://en.wikipedia.org/wiki/Marathon",
		title:   "Marathon - Wikipedia",
		snippet: "The marathon is a long-distance foot race with a distance of 42.195 kilometres, usually run as a road race.",
		bullets: []string{"A marathon is 26.2 miles long."},
		same:    []string{"42.195 kilometres / 26.2 miles"}},
	{notation: conversion, url: "https://www.alptransit.ch/en/home/",
		title:   "Gotthard Base Tunnel – AlpTransit Gotthard",
		snippet: "The Gotthard Base Tunnel runs for 57 km beneath the Swiss Alps and is the longest railway tunnel in the world.",
		bullets: []string{"The Gotthard Base Tunnel runs for about 35 miles beneath the Swiss Alps."},
		same:    []string{"57 km / about 35 miles"}},
	{notation: conversion, url: "https://www.airbus.com/en/products-services/commercial-aircraft/passenger-aircraft/a380",
		title:   "A380 | Airbus",
		snippet: "The A380 has a wingspan of 79.8 m and a maximum take-off weight of 575 tonnes.",
		bullets: []string{"The A380's wingspan is 262 feet.", "The A380's maximum take-off weight is about 1.27 million pounds."},
		same:    []string{"79.8 m / 262 feet", "575 tonnes / about 1.27 million pounds"}},
	{notation: conversion, url: "https://mars.nasa.gov/mars2020/spacecraft/rover/",
		title:   "Rover - NASA Science",
		snippet: "The Perseverance rover is about 10 feet long, 9 feet wide and 7 feet tall, and weighs 2,260 pounds on Earth.",
		bullets: []string{"Perseverance weighs 1,025 kg on Earth.", "The rover is about 3 metres long."},
		same:    []string{"2,260 pounds / 1,025 kg", "10 feet / about 3 metres"}},
	{notation: conversion, url: "https://www.nationalgeographic.com/animals/mammals/facts/blue-whale",
		title:   "Blue Whale | National Geographic",
		snippet: "Blue whales are the largest animals ever known to have lived on Earth. They can reach 100 feet long and weigh up to 199 tonnes.",
		bullets: []string{"Blue whales can grow to about 30 metres long.", "Blue whales weigh up to about 440,000 pounds."},
		same:    []string{"100 feet / about 30 metres", "199 tonnes / about 440,000 pounds"}},
	{notation: conversion, url: "https://www.bbc.co.uk/sport/athletics/66543210",
		title:   "Shot put world record extended - BBC Sport",
		snippet: "The American threw 23.56 metres in Los Angeles to break his own world record; the shot weighs 7.26 kg for men.",
		bullets: []string{"The men's shot weighs 16 pounds.", "The world record throw measured 77 feet 3.5 inches."},
		same:    []string{"7.26 kg / 16 pounds", "23.56 metres / 77 feet 3.5 inches"}},

	// A currency converted at the rate the snippet gives.
	{notation: currencyRate, url: "https://techcrunch.com/2024/03/12/mistral-funding-round/",
		title:   "French AI startup raises €500 million | TechCrunch",
		snippet: "The Paris-based startup raised €500 million in the round, its largest yet (€1 = $1.09 at the time of writing).",
		bullets: []string{"The startup raised about $545 million in the round."},
		same:    []string{"€500 million at €1 = $1.09 / about $545 million"}},
	{notation: currencyRate, url: "https://www.ft.com/content/norway-offshore-wind-contract",
		title:   "Norway awards first floating wind contract - Financial Times",
		snippet: "The contract is worth NOK 10.5bn, Equinor said on Monday, when the krone traded at NOK 10.5 to the dollar.",
		bullets: []string{"The contract is worth about $1 billion."},
		same:    []string{"NOK 10.5bn at NOK 10.5 to the dollar / about $1 billion"}},
	{notation: currencyRate, url: "https://www.economist.com/finance-and-economics/2024/02/01/japan-stimulus",
		title:   "Japan's new stimulus package | The Economist",
		snippet: "The package totals ¥13.9trn, roughly 2.3% of GDP, the cabinet said. The yen traded at ¥150 to the dollar in Tokyo on Friday.",
		bullets: []string{"Japan's stimulus package totals about $93 billion, roughly 2.3% of GDP."},
		same:    []string{"¥13.9trn at ¥150 to the dollar / about $93 billion"}},

	// Dates in the source's locale order.
	{notation: localeDate, url: "https://www.gov.uk/government/news/free-childcare-expansion",
		title:   "Free childcare expansion: next phase begins - GOV.UK",
		snippet: "Published 03/09/2024. Working parents of children aged from nine months can now claim 15 hours of free childcare a week, the Department for Education said.",
		bullets: []string{"The next phase of free childcare began on 3 September 2024.", "The expansion was announced on September 3, 2024."},
		same:    []string{"03/09/2024 on a .uk page / 3 September 2024", "03/09/2024 on a .uk page / September 3, 2024"}},
	{notation: localeDate, url: "https://www.abc.net.au/news/2024-08-06/rba-holds-cash-rate/104186234",
		title:   "RBA holds cash rate at 4.35pc - ABC News",
		snippet: "Posted Tue 6/8/2024. The Reserve Bank has left the cash rate on hold at 4.35 per cent for a sixth straight meeting.",
		bullets: []string{"On 6 August 2024 the RBA held the cash rate at 4.35%."},
		same:    []string{"6/8/2024 on a .au page / 6 August 2024"}},
	{notation: localeDate, url: "https://www.bundesregierung.de/breg-de/aktuelles/kabinettssitzung-2024",
		title:          "Kabinett beschließt Haushaltsentwurf | Bundesregierung",
		snippet:        "Stand: 17.07.2024. Das Bundeskabinett hat den Regierungsentwurf für den Bundeshaushalt 2025 beschlossen.",
		bullets:        []string{"The German cabinet adopted the draft 2025 budget on July 17, 2024."},
		same:           []string{"17.07.2024 / July 17, 2024"},
		sourceLanguage: "de"},
	{notation: localeDate, url: "https://www.lemonde.fr/politique/article/2024/06/09/dissolution.html",
		title:          "Emmanuel Macron annonce la dissolution de l'Assemblée nationale - Le Monde",
		snippet:        "Publié le 09/06/2024 à 21h02. Le président de la République a annoncé dimanche soir la dissolution de l'Assemblée nationale et des élections législatives les 30 juin et 7 juillet.",
		bullets:        []string{"Macron announced the dissolution of the National Assembly on 9 June 2024.", "The legislative elections were set for June 30 and July 7."},
		same:           []string{"09/06/2024 on a .fr page / 9 June 2024", "30 juin et 7 juillet / June 30 and July 7"},
		sourceLanguage: "fr"},
	{notation: localeDate, url: "https://www.census.gov/newsroom/press-releases/2024/population-estimates.html",
		title:   "Population Estimates Press Release - Census.gov",
		snippet: "Release Date: 12/19/2024. The U.S. population grew by 3.3 million people, or 0.98%, between 2023 and 2024.",
		bullets: []string{"The Census Bureau released its estimates on 19 December 2024.", "The U.S. population grew by 3.3 million people, or 0.98 percent, between 2023 and 2024."},
		same:    []string{"12/19/2024 / 19 December 2024", "0.98% / 0.98 percent"}},
	{notation: localeDate, url: "https://www.nasa.gov/news-release/nasa-selects-artemis-crew/",
		title:   "NASA Names Astronauts to Next Moon Mission - NASA",
		snippet: "04/03/2023 - NASA and the Canadian Space Agency named the four astronauts who will venture around the Moon on Artemis II.",
		bullets: []string{"The Artemis II crew was named on April 3, 2023."},
		same:    []string{"04/03/2023 on a .gov page / April 3, 2023"}},
	{notation: localeDate, url: "https://www.thehindu.com/news/national/chandrayaan-3-landing/article67222414.ece",
		title:   "Chandrayaan-3 lands on the Moon - The Hindu",
		snippet: "Updated - 23/08/2023 06:04 pm IST. India's Chandrayaan-3 lander touched down near the lunar south pole on Wednesday evening.",
		bullets: []string{"Chandrayaan-3 landed near the lunar south pole on 23 August 2023."},
		same:    []string{"23/08/2023 / 23 August 2023"}},
	{notation: localeDate, url: "https://www.elmundo.es/ciencia-y-salud/2024/09/03/eclipse.html",
		title:          "El eclipse anular de octubre | EL MUNDO",
		snippet:        "El eclipse anular será visible el 2 de octubre de 2024 en el sur de Chile y Argentina.",
		bullets:        []string{"The annular eclipse was visible on October 2, 2024 in southern Chile and Argentina."},
		same:           []string{"2 de octubre de 2024 / October 2, 2024"},
		sourceLanguage: "es"},
	{notation: localeDate, url: "https://www.spiegel.de/wissenschaft/weltraum/esa-start-100.html",
		title:          "Ariane 6 startet zum ersten Mal - DER SPIEGEL",
		snippet:        "Die neue europäische Trägerrakete Ariane 6 ist am 9. Juli 2024 erstmals vom Weltraumbahnhof Kourou gestartet.",
		bullets:        []string{"Ariane 6 first launched from Kourou on 09.07.2024.", "Ariane 6's first launch was on 9 Jul 2024."},
		same:           []string{"9. Juli 2024 / 09.07.2024", "9. Juli 2024 / 9 Jul 2024"},
		sourceLanguage: "de"},
	{notation: localeDate, url: "https://www.example-news.com/tech/2024/product-launch",
		title:   "Company unveils new handset",
		snippet: "4/7/2024 - The company unveiled its new handset at an event in San Francisco, with sales starting a week later.",
		bullets: []string{"The handset was unveiled on 4 July 2024.", "The handset was unveiled on April 7, 2024."},
		same:    []string{"4/7/2024 on a .com page (either order) / 4 July 2024", "4/7/2024 on a .com page (either order) / April 7, 2024"}},

	// ISO dates.
	{notation: isoDate, url: "https://commission.europa.eu/news/ai-act-enters-force-2024-08-01_en",
		title:   "AI Act enters into force - European Commission",
		snippet: "On 1 August 2024, the European Artificial Intelligence Act (AI Act) enters into force. The Act aims to foster responsible artificial intelligence development.",
		bullets: []string{"The AI Act entered into force on 2024-08-01."},
		same:    []string{"1 August 2024 / 2024-08-01"}},
	{notation: isoDate, url: "https://pypi.org/project/numpy/2.0.0/",
		title:   "numpy · PyPI",
		snippet: "numpy 2.0.0 · Released: 2024-06-16. NumPy is the fundamental package for array computing with Python.",
		bullets: []string{"NumPy 2.0.0 was released on June 16, 2024.", "NumPy 2.0.0 came out on 16 June 2024."},
		same:    []string{"2024-06-16 / June 16, 2024", "2024-06-16 / 16 June 2024"}},
	{notation: isoDate, url: "https://www.japantimes.co.jp/news/2024/03/19/boj-ends-negative-rates/",
		title:   "BOJ ends negative rates in historic shift - The Japan Times",
		snippet: "2024/03/19 — The Bank of Japan ended eight years of negative interest rates on Tuesday, raising its short-term policy rate to a range of 0 to 0.1%.",
		bullets: []string{"The Bank of Japan ended negative interest rates on 19 March 2024."},
		same:    []string{"2024/03/19 / 19 March 2024"}},

	// ISO and calendar weeks.
	{notation: week, url: "https://www.example-logistics.com/news/delivery-schedule",
		title:   "Delivery schedule update",
		snippet: "Deliveries of the new model are scheduled for week 36 of 2024, the company said in a statement to suppliers.",
		bullets: []string{"Deliveries were scheduled for 2024-W36.", "Deliveries were planned for KW 36 2024."},
		same:    []string{"week 36 of 2024 / 2024-W36", "week 36 of 2024 / KW 36 2024"}},
	{notation: week, url: "https://www.heise.de/news/liefertermin-kw-36-2024.html",
		title:          "Neues Modell: Auslieferung ab KW 36/2024 | heise online",
		snippet:        "Der Hersteller will das neue Modell ab KW 36/2024 ausliefern; Vorbestellungen sind ab sofort möglich.",
		bullets:        []string{"Shipments start in week 36 of 2024.", "The maker plans to ship from calendar week 36, 2024."},
		same:           []string{"KW 36/2024 / week 36 of 2024", "KW 36/2024 / calendar week 36, 2024"},
		sourceLanguage: "de"},
	{notation: week, url: "https://www.messe.de/en/trade-fairs/2025-W12",
		title:   "Trade fair calendar 2025 | Deutsche Messe",
		snippet: "The trade fair takes place in calendar week 12, 2025, from 17 to 21 March at the Hannover exhibition grounds.",
		bullets: []string{"The fair takes place in 2025-W12.", "The fair is held in KW 12 of 2025."},
		same:    []string{"calendar week 12, 2025 / 2025-W12", "calendar week 12, 2025 / KW 12 of 2025"}},
	{notation: week, url: "https://www.rki.de/EN/Content/infections/epidemiology/flu-report-2024-W52.html",
		title:   "Influenza weekly report 2024-W52 - RKI",
		snippet: "In 2024-W52 the ARI activity in the population increased compared to the previous week; 1,250 influenza cases were reported.",
		bullets: []string{"ARI activity increased in week 52 of 2024.", "1,250 influenza cases were reported in KW 52 2024."},
		same:    []string{"2024-W52 / week 52 of 2024", "2024-W52 / KW 52 2024"}},
	{notation: week, url: "https://www.example-retail.com/press/black-friday-week",
		title:   "Black Friday week sales",
		snippet: "Sales in the week of 25 November 2024 were 12% higher than a year earlier, the retailer said.",
		bullets: []string{"Sales in 2024-W48 were 12% higher than a year earlier."},
		same:    []string{"the week of 25 November 2024 / 2024-W48"}},

	// A rate's period written another way.
	{notation: period, url: "https://www.opec.org/opec_web/en/press_room/7302.htm",
		title:   "OPEC+ agrees further voluntary cuts | OPEC",
		snippet: "Eight OPEC+ countries will extend voluntary output cuts of 2.2 million barrels per day until the end of the first quarter of 2025.",
		bullets: []string{"Eight OPEC+ countries extended cuts of 2.2 million barrels a day.", "The voluntary cuts total 2.2m barrels/day."},
		same:    []string{"2.2 million barrels per day / 2.2 million barrels a day", "2.2 million barrels per day / 2.2m barrels/day"}},
	{notation: period, url: "https://www.theverge.com/2024/1/18/streaming-price-increase",
		title:   "The streaming service is raising its price again - The Verge",
		snippet: "The ad-free plan now costs $15.49 a month, up from $13.99, while the annual plan costs $186 a year.",
		bullets: []string{"The ad-free plan costs $15.49 per month.", "The annual plan costs $186 per year."},
		same:    []string{"$15.49 a month / $15.49 per month", "$186 a year / $186 per year"}},
	{notation: period, url: "https://www.gov.uk/national-minimum-wage-rates",
		title:   "National Minimum Wage and National Living Wage rates - GOV.UK",
		snippet: "The National Living Wage is £11.44 an hour for those aged 21 and over from April 2024. Full-time workers typically work 37.5 hours a week.",
		bullets: []string{"The National Living Wage is £11.44 per hour from April 2024.", "Full-time workers typically work 37.5 hours per week."},
		same:    []string{"£11.44 an hour / £11.44 per hour", "37.5 hours a week / 37.5 hours per week"}},

	// Thresholds the value does meet.
	{notation: threshold, url: "https://www.electoralcommission.org.uk/referendum-results",
		title:   "Referendum results | Electoral Commission",
		snippet: "Turnout was 50.4%, above the 50% threshold required for the result to be valid; 52.1% voted in favour.",
		bullets: []string{"Turnout crossed the 50% threshold.", "More than 52% voted in favour."},
		same:    []string{"50.4% / crossed 50%", "52.1% / more than 52%"}},
	{notation: threshold, url: "https://www.ons.gov.uk/economy/inflationandpriceindices/bulletins/consumerpriceinflation/june2024",
		title:   "Consumer price inflation, UK: June 2024 - Office for National Statistics",
		snippet: "The Consumer Prices Index (CPI) rose by 2.0% in the 12 months to June 2024, the same rate as in May 2024, and at the Bank of England's 2% target.",
		bullets: []string{"UK CPI inflation met the 2% target in June 2024."},
		same:    []string{"2.0% / met the 2% target"}},
	{notation: threshold, url: "https://www.iea.org/news/renewables-2023",
		title:   "Renewable capacity additions reached 510 GW in 2023 - IEA",
		snippet: "Global annual renewable capacity additions increased by almost 50% to nearly 510 gigawatts (GW) in 2023; solar accounted for three-quarters of additions.",
		bullets: []string{"Solar accounted for at least 75% of renewable capacity additions in 2023."},
		same:    []string{"three-quarters / at least 75%"}},
	{notation: threshold, url: "https://www.ecb.europa.eu/press/economic-bulletin/inflation-below-target",
		title:   "Euro area inflation below target - European Central Bank",
		snippet: "Euro area annual inflation was 1.7% in September 2024, below the ECB's 2% medium-term target for the first time since 2021.",
		bullets: []string{"Euro area inflation fell below 2% in September 2024."},
		same:    []string{"1.7% / below 2%"}},

	// A unit spelt another way.
	{notation: unitSpelling, url: "https://www.olympics.com/en/news/weightlifting-world-record",
		title:   "Weightlifting world record set in Paris - Olympics.com",
		snippet: "She lifted 118 kg in the snatch, a new Olympic record, before adding 150 kg in the clean and jerk.",
		bullets: []string{"She lifted 118 kilograms in the snatch, an Olympic record.", "She added 150 kilos in the clean and jerk."},
		same:    []string{"118 kg / 118 kilograms", "150 kg / 150 kilos"}},
	{notation: unitSpelling, url: "https://en.wikipedia.org/wiki/Golden_Gate_Bridge",
		title:   "Golden Gate Bridge - Wikipedia",
		snippet: "The Golden Gate Bridge is a suspension bridge spanning the Golden Gate; its main span is 4,200 feet (1,280 m) and its towers rise 746 ft above the water.",
		bullets: []string{"The Golden Gate Bridge's towers rise 746 feet above the water.", "Its main span is 1,280 metres."},
		same:    []string{"746 ft / 746 feet", "1,280 m / 1,280 metres"}},
}

// pair is one generated record.
type pair struct {
	ID       string `yaml:"id"`
	Notation string `yaml:"notation"`
	Same     string `yaml:"same"`
	URL      string `yaml:"url"`
	Title    string `yaml:"title"`
	Snippet  string `yaml:"snippet"`
	Language string `yaml:"language,omitempty"`
	Bullet   string `yaml:"bullet"`
}

const header = `# The grounding scorer's equal-values set (issue 39): each pair is a search
# result (url, title, snippet, as the model sees it after the 300-character
# cut) and a bullet that writes one of its values in another notation
# (notation; same names both writings). Every bullet is grounded, so a
# grounding.claims failure on a pair is a false alarm.
#
# Generated by go run ./eval/score/groundgen; written once, never edited
# after its first measurement (eval/score/groundgen/README.md).
`

func main() {
	out := flag.String("out", "eval/score/testdata/grounding-values.yaml", "file to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "groundgen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists: the equal-values set is written once and never rewritten", out)
	}
	pairs, err := generate()
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(map[string][]pair{"pairs": pairs}); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// generate numbers each seed's bullets by notation and checks the seeds:
// a snippet fits the 300-character cut, each bullet says which writings it
// pairs.
func generate() ([]pair, error) {
	var out []pair
	var errs []error
	n := map[string]int{}
	for i, s := range seeds {
		if c := utf8.RuneCountInString(s.snippet); c > 300 {
			errs = append(errs, fmt.Errorf("seed %d (%s): snippet of %d characters, over the 300-character cut", i, s.url, c))
		}
		if len(s.same) != len(s.bullets) {
			errs = append(errs, fmt.Errorf("seed %d (%s): %d bullets, %d same", i, s.url, len(s.bullets), len(s.same)))
			continue
		}
		for j, b := range s.bullets {
			n[s.notation]++
			out = append(out, pair{ID: fmt.Sprintf("%s-%02d", s.notation, n[s.notation]), Notation: s.notation, Same: s.same[j],
				URL: s.url, Title: s.title, Snippet: s.snippet, Language: s.sourceLanguage, Bullet: b})
		}
	}
	return out, errors.Join(errs...)
}
