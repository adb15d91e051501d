package codes

// Kind tells the three codes apart.
type Kind uint8

const (
	KindUnknown    Kind = iota
	KindPack            // pack code, Code 128 on the sleeve
	KindTicket          // ticket code, Interleaved 2 of 5 on the ticket's back
	KindValidation      // validation code, QR under the latex (manual-entry form beside it)
)

// String returns the kind's short name as posctl prints it.
func (k Kind) String() string {
	switch k {
	case KindPack:
		return "pack"
	case KindTicket:
		return "ticket"
	case KindValidation:
		return "validation"
	}
	return "unknown"
}

func (k Kind) noun() string {
	if k == KindUnknown {
		return "code"
	}
	return k.String() + " code"
}

// Code is what Parse returns: one of PackCode, TicketCode or ValidationCode.
type Code interface {
	Kind() Kind
	String() string
	AppendText(b []byte) ([]byte, error)
}

var (
	_ Code = PackCode{}
	_ Code = TicketCode{}
	_ Code = ValidationCode{}
)
