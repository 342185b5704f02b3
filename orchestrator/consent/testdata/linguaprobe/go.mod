module probe

go 1.26

require (
	github.com/pemistahl/lingua-go v1.4.0 // indirect
	github.com/shopspring/decimal v1.3.1 // indirect
	golang.org/x/exp v0.0.0-20221106115401-f9659909a136 // indirect
	google.golang.org/protobuf v1.31.0 // indirect
)
