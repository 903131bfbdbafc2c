package release

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"emr/internal/document"
	"emr/internal/result"
	"emr/internal/textsearch"
)

// Categories of result a clinic gives in person rather than by a portal, and keeps from a
// parent who reads an adolescent's record (ADR 45): "" for none.
const (
	SexualHealth = "sexual_health" // HIV, syphilis, hepatitis B and C, chlamydia, gonorrhoea
	Pregnancy    = "pregnancy"     // hCG, a pelvic ultrasound
	Cancer       = "cancer"        // a tumour marker, histology, cytology
	Genetic      = "genetic"       // a genetic or karyotype test
)

// sensitiveCodes are the shipped catalogue's tests (lab_tests_starter.tsv) and the LOINC codes
// of the same tests a clinic may have added under its own code.
var sensitiveCodes = map[string]string{
	"HIV": SexualHealth, "HBSAG": SexualHealth, "HCV": SexualHealth, "PREG": Pregnancy, "US-PELV": Pregnancy, "PSA": Cancer,
	// LOINC, each checked against two published value sets where one could be found (US eCQM
	// value sets as transcribed by canvas-medical/canvas-plugins; the Swiss reportable-laboratory
	// value set, ahdis/ch-elm; IHE PCC.APS; HL7 mCODE's tumour markers), 2026-11-30.
	// HIV: Ab+p24 Ag by immunoassay; "HIV 1 and 2 tests" (a panel meaning any HIV test); HIV-1
	// Ab in serum; HIV 1+2 Ab in serum, by immunoassay, by rapid immunoassay (blood; any
	// specimen); Ab+p24 Ag [Units/volume]; HIV-1 RNA viral load (serum or plasma; any specimen;
	// Units/volume).
	"56888-1": SexualHealth, "75622-1": SexualHealth, "7917-8": SexualHealth, "7918-6": SexualHealth, "31201-7": SexualHealth,
	"80387-4": SexualHealth, "49580-4": SexualHealth, "58900-2": SexualHealth, "20447-9": SexualHealth, "25836-8": SexualHealth,
	"62469-2": SexualHealth,
	// Syphilis: reagin Ab by RPR, by VDRL; T. pallidum Ab [Presence], by immunoassay, by
	// haemagglutination (TPHA).
	"20507-0": SexualHealth, "5292-8": SexualHealth, "22587-0": SexualHealth, "24110-9": SexualHealth, "8041-6": SexualHealth,
	// Hepatitis B surface Ag (by immunoassay; in serum; by rapid immunoassay) and DNA; hepatitis
	// C Ab (in serum; by immunoassay) and RNA (presence; viral load).
	"5196-1": SexualHealth, "5195-3": SexualHealth, "75410-1": SexualHealth, "29610-3": SexualHealth,
	"16128-1": SexualHealth, "13955-0": SexualHealth, "11259-9": SexualHealth, "11011-4": SexualHealth,
	// Chlamydia and gonorrhoea NAAT: DNA (any specimen; urine), rRNA (any specimen; urine),
	// chlamydia DNA in urine, and the two together (DNA; DNA in urine).
	"21613-5": SexualHealth, "21416-3": SexualHealth, "24111-7": SexualHealth, "43304-5": SexualHealth, "43305-2": SexualHealth,
	"42931-6": SexualHealth, "60256-5": SexualHealth, "6357-8": SexualHealth, "36902-5": SexualHealth, "44806-8": SexualHealth,
	// High-risk HPV DNA of the cervix: the 9-type probe test; 14 types by signal amplification;
	// the same by NAA.
	"21440-3": SexualHealth, "59420-0": SexualHealth, "82675-0": SexualHealth,
	// hCG: urine and serum, qualitative (also by rapid immunoassay) and quantitative.
	"2106-3": Pregnancy, "2118-8": Pregnancy, "80384-1": Pregnancy, "80385-8": Pregnancy, "21198-7": Pregnancy, "19080-1": Pregnancy,
	// Tumour markers: PSA, CEA, CA-125, AFP (also a prenatal screen: withheld either way), CA
	// 19-9, CA 15-3, and their "by immunoassay" codes.
	"2857-1": Cancer, "2039-6": Cancer, "10334-1": Cancer, "1834-1": Cancer, "24108-3": Cancer, "6875-9": Cancer,
	"83112-3": Cancer, "83085-1": Cancer, "83082-8": Cancer, "83073-7": Cancer, "83084-4": Cancer, "83083-6": Cancer,
}

// pattern is a way of writing names of one category of care.
type pattern struct {
	re       *regexp.Regexp
	category string
}

// matchIn is the category of the first pattern of list that s matches as written or folded
// (accents and tone marks off, й → и: a name typed without them), of categories alone when
// any are given; "" when none matches.
func matchIn(list []pattern, s string, categories ...string) string {
	if c := matchAs(list, s, categories); c != "" {
		return c
	}
	if folded := textsearch.Fold(s); folded != strings.ToLower(s) {
		return matchAs(list, folded, categories)
	}
	return ""
}

// matchAs is matchIn of s as written only (a printed document's text, long, written by the
// clinic's templates with its accents: folding it would double the read's cost for nothing).
func matchAs(list []pattern, s string, categories []string) string {
	for _, p := range list {
		if (len(categories) == 0 || slices.Contains(categories, p.category)) && p.re.MatchString(s) {
			return p.category
		}
	}
	return ""
}

// sensitiveWords catch a test a clinic named itself, in any of the four languages — as written
// and, folded, typed without accents (the unaccented Vietnamese forms) —: a safety net that
// errs towards a test given in person.
var sensitiveWords = []pattern{
	// "HIV1/2 Ag/Ab": no boundary after hiv. Syphilis by its tests (TPHA, RPR, VDRL) and
	// its germ; hepatitis B and C by their markers; chlamydia, gonorrhoea (CT/NG),
	// trichomonas, herpes (HSV), HPV, Mycoplasma genitalium, ureaplasma.
	{regexp.MustCompile(`(?i)\bhiv|вич|艾滋|syphil|сифилис|梅毒|giang mai|\btpha|\brpr\b|\bvdrl|trepon|трепонем|密螺旋体|` +
		`hepatitis [bc]|гепатит [bcвс]|乙肝|丙肝|乙型肝炎|丙型肝炎|viêm gan [bc]|viem gan [bc]|hbsag|\bhbs[ -]?ag|\bhbv|\bhcv|anti-?hcv|` +
		`chlamydia|хламиди|衣原体|gonorr|гонор|淋病|淋球菌|lậu|bệnh lau|benh lau|\bct ?/ ?ng\b|trichomon|трихомон|滴虫|trùng roi|trung roi|` +
		`\bhsv|herpes|герпес|疱疹|mụn rộp|mun rop|\bhpv|papilloma|папиллом|乳头瘤|sùi mào gà|sui mao ga|genitalium|гениталиум|生殖支原体|` +
		`ureaplasm|уреаплазм|脲原体`), SexualHealth},
	// hCG as bHCG, β-hCG, beta-hCG; ХГЧ; 人绒毛膜促性腺激素. Contraception with it.
	{regexp.MustCompile(`(?i)hcg|хгч|绒毛膜促性腺激素|pregnan|беремен|妊娠|怀孕|\bthai\b|contracep|контрацеп|避孕|levonorgestrel|левоноргестрел|左炔诺孕酮|ulipristal|улипристал`), Pregnancy},
	{regexp.MustCompile(`(?i)\bpsa\b|\bcea\b|\bafp\b|ca[- ]?125|ca[- ]?19|ca[- ]?15|tumou?r marker|онкомаркер|肿瘤标志|chất chỉ điểm|chat chi diem|histolog|гистолог|病理|mô bệnh học|mo benh hoc|cytolog|цитолог|细胞学|tế bào học|te bao hoc|` +
		`biops|биопс|活检|sinh thiết|sinh thiet`), Cancer},
	{regexp.MustCompile(`(?i)genetic|karyotyp|генетич|кариотип|基因|染色体|di truyền|di truyen|nhiễm sắc thể|nhiem sac the|brca`), Genetic},
}

// sensitiveMedicines catch what a bill or a prescription names of the care a clinic gives an
// adolescent in person (the pharmacist's review, 2026-11-30): contraception — every hormonal
// method by its substances and common brands in the four countries' registers, devices (IUD,
// implant, ring, patch), condoms, emergency contraception — and medical abortion (mifepristone,
// misoprostol) as pregnancy; HIV treatment, PrEP and PEP, hepatitis B and C treatment, and the
// medicines specific to an STI (benzathine penicillin, podophyllotoxin, imiquimod) as sexual
// health. Matched on the name and on its folded form (accents and tone marks off, й → и: an
// entry typed without them); short tokens only as whole words (Go's \b knows Latin letters
// alone). Left out on purpose, too common elsewhere: ceftriaxone, azithromycin, doxycycline,
// metronidazole, aciclovir and its kin, fluconazole, folic acid, iron, ritonavir alone. Hidden
// beyond need, accepted: norethisterone for periods, co-cyprindiol for acne, lamivudine and
// entecavir for hepatitis B (a category of its own here), rabies "PEP".
var sensitiveMedicines = []pattern{
	{regexp.MustCompile(`(?i)` +
		// Substances (Latin, as English and Vietnamese write them), methods and devices.
		`norgestrel|ulipristal|desogestrel|etonogestrel|gestoden|drospirenon|dienogest|cyproteron|norgestimat|norelgestromin|nomegestrol|` +
		`l[yi]nestrenol|chlormadinon|medroxyprogesteron|norethisteron|norethindron|eth[iy]nyl[ -]?o?estradiol|mifepriston|misoprostol|` +
		`contracep|intrauterine|condom|tranh thai|dung cu tu cung|dat vong|thao vong|que cay|bao cao su|` +
		// Brands.
		`postinor|escapelle|ellaone|levonelle|norlevo|yasmin|marvelon|mercilon|microgynon|rigevidon|diane-? ?35|dianette|cerazette|exluton|` +
		`slynd|opill|new ?choice|multiload|mirena|kyleena|jaydess|implanon|nexplanon|jadelle|depo-? ?provera|sayana|nuvaring|` +
		// Russian.
		`левоноргестрел|норгестрел|улипристал|дезогестрел|этоногестрел|гестоден|дроспиренон|диеногест|ципротерон|норгестимат|норэлгестромин|` +
		`номег[эе]строл|лин[эе]стренол|хлормадинон|медроксипрогестерон|нор[эе]тистерон|этинил[эе]страдиол|мифепристон|мизопростол|` +
		`контрацеп|внутриматочн|презерватив|постинор|эскапел|эллаон|эжения|гинепристон|женале|регулон|ярина|джес|жанин|новинет|линдинет|` +
		`логест|три-регол|ригевидон|марвелон|мерсилон|клаира|зоэли|чарозетта|лактинет|экслютон|диане-? ?35|мирена|каилина|джеидесс|` +
		`мультилоуд|импланон|некспланон|депо-? ?провера|саяна|новаринг|` +
		// Chinese.
		`左炔诺孕酮|炔诺孕酮|乌利司他|去氧孕烯|依托孕烯|孕二烯酮|屈螺酮|地诺孕素|环丙孕酮|诺孕酯|甲羟孕酮|炔诺酮|炔雌醇|米非司酮|米索前列醇|` +
		`避孕|节育|上环|取环|放环|皮下埋植|安全套|毓婷|安婷|优思明|优思悦|妈富隆|美欣乐|达英-?35|曼月乐|` +
		// Short names, whole words only.
		`(?:^|[^\p{L}\p{N}])(?:iud|ius|cu-?t ?380a?|tcu ?380a?|evra|yaz|ella|plan b|вмс|евра)(?:$|[^\p{L}\p{N}])`), Pregnancy},
	{regexp.MustCompile(`(?i)` +
		`tenofovir|emtricitabin|lamivudin|dolutegravir|efavirenz|zidovudin|abacavir|raltegravir|lopinavir|atazanavir|darunavir|nevirapin|` +
		`entecavir|bictegravir|rilpivirin|cabotegravir|lenacapavir|doravirin|elvitegravir|etravirin|adefovir|telbivudin|sofosbuvir|` +
		`velpatasvir|ledipasvir|daclatasvir|glecaprevir|pibrentasvir|benzathin|podophyllotox|imiquimod|condylom|phoi nhiem|` +
		`truvada|descovy|biktarvy|kaletra|viread|baraclude|vemlidy|zeffix|epclusa|harvoni|maviret|genvoya|odefsey|triumeq|dovato|` +
		`juluca|apretude|bicillin|extencillin|retarpen|condyline|wartec|warticon|aldara|` +
		`тенофовир|эмтрицитабин|ламивудин|долутегравир|эфавиренз|зидовудин|абакавир|ралтегравир|лопинавир|атазанавир|дарунавир|невирапин|` +
		`энтекавир|биктегравир|рилпивирин|каботегравир|ленакапавир|доравирин|элвитегравир|этравирин|адефовир|телбивудин|софосбувир|` +
		`велпатасвир|ледипасвир|даклатасвир|глекапревир|пибрентасвир|бензатин|бициллин|подофиллотоксин|имихимод|кондилом|доконтактн|` +
		`постконтактн|трувада|дескови|биктарви|калетра|виреад|бараклюд|эпклюза|мавирет|алдара|кондилин|` +
		`替诺福韦|恩曲他滨|拉米夫定|多替拉韦|依非韦伦|齐多夫定|阿巴卡韦|拉替拉韦|洛匹那韦|阿扎那韦|达芦那韦|奈韦拉平|恩替卡韦|比克替拉韦|` +
		`利匹韦林|卡替拉韦|来那卡帕韦|多拉韦林|艾维雷韦|依曲韦林|阿德福韦|替比夫定|索磷布韦|维帕他韦|来迪派韦|达拉他韦|格卡瑞韦|哌仑他韦|` +
		`苄星青霉素|鬼臼毒素|咪喹莫特|暴露前预防|暴露后预防|抗逆转录病毒|舒发泰|达可挥|必妥维|克力芝|韦瑞德|博路定|韦立得|贺普丁|贺维力|` +
		`丙通沙|夏帆宁|艾诺全|绥美凯|` +
		`(?:^|[^\p{L}\p{N}])(?:prep|pep|arv|arvt|haart|tdf|taf|tld|tle|3tc|azt|ftc|dtg|efv|арвт|арвп)(?:$|[^\p{L}\p{N}])`), SexualHealth},
}

// MedicineSensitivity is the category of a medicine, device or supply by its name (a bill
// line's, a prescription's), "" when it is none of sensitiveMedicines.
func MedicineSensitivity(name string) string { return matchIn(sensitiveMedicines, name) }

// OrderSensitivity is the category of order o: of its test, or else of any of its analytes
// (their codes, LOINC codes and names: an HIV antibody recorded on a "Screening panel"),
// those of its results withdrawn too.
func OrderSensitivity(o *result.Order) string {
	if c := Sensitivity(o.Test, o.LOINC, o.TestLabel); c != "" {
		return c
	}
	for _, list := range [][]result.Result{o.Results, o.Retracted} {
		for _, r := range list {
			if c := Sensitivity(r.Analyte, r.LOINC, r.Label); c != "" {
				return c
			}
		}
	}
	return ""
}

// Sensitivity is the category of a test (its catalogue code, its LOINC code, its names in the
// clinic's languages), "" when it is none of them.
func Sensitivity(code, loinc string, names ...string) string {
	if c := sensitiveCodes[strings.ToUpper(strings.TrimSpace(code))]; c != "" {
		return c
	}
	if c := sensitiveCodes[strings.TrimSpace(loinc)]; c != "" {
		return c
	}
	for _, n := range names {
		if c := matchIn(sensitiveWords, n); c != "" {
			return c
		}
	}
	return ""
}

// sensitiveDiagnoses are the ICD-10 codes (WHO ICD-10, 2019) of the care a clinic gives an
// adolescent in person: contraception, pregnancy and its tests (Z30–Z39, O00–O9A),
// syphilis, gonorrhoea, chlamydia and the other sexually transmitted infections (A50–A64),
// HIV (B20–B24, Z21, Z71.7), hepatitis B and C — acute (B16, B17.0 delta, B17.1) and chronic
// (B18.0–B18.2), as the test rule names them; hepatitis A (B15) and E (B17.2), spread by food
// and water, are not —, pelvic inflammation (N70–N77), screening for or contact with them
// (Z11.3, Z11.4, Z20.2, Z20.6), high-risk sexual behaviour (Z72.5). TestDiagnosisSensitivity.
var sensitiveDiagnoses = regexp.MustCompile(`\b(Z3\d|O\d[\dA]|A5\d|A6[0-4]|B2[0-4]|Z21|Z71\.7|B16|B17\.[01]|B18\.[0-2]|N7[0-7]|Z11\.[34]|Z20\.[26]|Z72\.5)`)

// DiagnosisSensitivity is the category of a visit's diagnosis (its ICD-10 code, or the words
// of a diagnosis written out) when it is care a clinic gives an adolescent in person:
// contraception and pregnancy, or sexual health (sensitiveDiagnoses, sensitiveWords); "" else.
func DiagnosisSensitivity(code, text string) string {
	if c := careSensitivity(strings.ToUpper(strings.TrimSpace(code)), ""); c != "" {
		return c
	}
	return matchIn(sensitiveWords, text, SexualHealth, Pregnancy)
}

// careSensitivity is the category of the care that codes (where sensitiveDiagnoses are looked
// for) and words (where sensitiveWords of sexual health and pregnancy are, as written) name;
// "" for none.
func careSensitivity(codes, words string) string {
	if m := sensitiveDiagnoses.FindString(codes); m != "" {
		if m[0] == 'Z' && m[1] == '3' || m[0] == 'O' {
			return Pregnancy
		}
		return SexualHealth
	}
	return matchAs(sensitiveWords, words, []string{SexualHealth, Pregnancy})
}

// documentSensitivity is the category of what document d says (its blocks' text): a
// sensitive diagnosis code, or a test or care Sensitivity names; "" for none. A medical
// certificate prints the visit's diagnoses: "Z30.0 General counselling and advice on
// contraception" tells a parent what the results leave out.
func documentSensitivity(d *document.Document) string {
	var b strings.Builder
	add := func(runs []document.Run) {
		for _, r := range runs {
			b.WriteString(r.Text)
			b.WriteString(" ")
		}
	}
	for _, bl := range d.Content {
		add(bl.Runs)
		for _, it := range bl.Items {
			add(it)
		}
		for _, row := range bl.Rows {
			for _, cell := range row {
				add(cell)
			}
		}
	}
	text := b.String()
	return careSensitivity(text, text)
}

// unknownOrder is the category of an order that cannot be read: a reader keeps it as sensitive.
const unknownOrder = "unknown"

// OrderSensitivities are the categories (OrderSensitivity) of the orders ids, read from
// patientID's record: what a bill line charging one of them says of the test. An order that
// cannot be read is unknownOrder: not "", kept as sensitive.
func (s *Store) OrderSensitivities(ctx context.Context, patientID int64, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	orders, _, err := s.Results.ForRelease(ctx, patientID, ids, "en")
	if err != nil {
		return nil, err
	}
	all := make(map[int64]string, len(orders))
	for i := range orders {
		all[orders[i].ID] = OrderSensitivity(&orders[i])
	}
	for _, id := range ids {
		c, ok := all[id]
		if !ok { // not the patient's, or gone: kept as sensitive
			c = unknownOrder
		}
		out[id] = c
	}
	return out, nil
}
