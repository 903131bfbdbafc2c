package prescription_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// The medicine-safety check as a clinical pharmacist would test it (docs/adr/0025, the
// pharmacist's review of 2026-11-25): each case is an allergy list, the patient's current
// medicines and the lines being written, as a clinic types them in any of the four
// languages, with the findings that must (or must not) come back. A want entry reads
// "line:kind:tier", with "!" when the finding blocks; no want entries: nothing may be said.
//
// Lines: text is typed freely; "@words" is the starter catalogue's first entry found by the
// words; "!Name|ingredients|ATC" is a clinic's own catalogue entry, made for the case.

type caseAllergy struct{ substance, reaction, severity string }

type caseCurrent struct {
	line, duration string
	daysAgo        int
}

// caseRx is an earlier prescription of one line written out in full: its fields beyond the
// medicine (duration, dose, frequency, quantity, refills), and whether it was cancelled.
type caseRx struct {
	line      string
	fields    map[string]any
	daysAgo   int
	cancelled bool
	// issued: printed that day (a draft is never counted as given)
	issued bool
}

// caseTaken is a medicine recorded on the chart as taken (source elsewhere or otc), stopped
// or not. Recording it answers the allergies it meets: the case wants them as
// "recorded:kind:tier".
type caseTaken struct {
	line, source string
	stopped      bool
	// stoppedDaysAgo: stopped that many days ago (stopped today when 0).
	stoppedDaysAgo int
	// fields are more of the entry's fields (route, last_dose, …).
	fields map[string]any
}

type clinicalCase struct {
	name      string
	evidence  string
	lang      string
	allergies []caseAllergy
	current   []caseCurrent
	earlier   []caseRx
	taken     []caseTaken
	lines     []string
	want      []string
}

// refillCase is a line written again after earlier prescriptions of the patient (the
// pharmacist's review of the refill window, 2026-11-29: its case number).
func refillCase(name, evidence string, earlier []caseRx, line string, want ...string) clinicalCase {
	return clinicalCase{name: name, evidence: evidence, earlier: earlier, lines: []string{line}, want: want}
}

// given is an earlier prescription of a line for duration, daysAgo, with more fields as
// pairs ("quantity", "90", "frequency", "1 daily").
func given(line, duration string, daysAgo int, more ...any) caseRx {
	rx := caseRx{line: line, fields: map[string]any{"duration": duration}, daysAgo: daysAgo}
	for i := 0; i+1 < len(more); i += 2 {
		rx.fields[more[i].(string)] = more[i+1]
	}
	return rx
}

func al(substance string, more ...string) caseAllergy {
	a := caseAllergy{substance: substance}
	if len(more) > 0 {
		a.reaction = more[0]
	}
	if len(more) > 1 {
		a.severity = more[1]
	}
	return a
}

func allergyCase(name, evidence string, a caseAllergy, line string, want ...string) clinicalCase {
	return clinicalCase{name: name, evidence: evidence, allergies: []caseAllergy{a}, lines: []string{line}, want: want}
}

func linesCase(name, evidence string, lines []string, want ...string) clinicalCase {
	return clinicalCase{name: name, evidence: evidence, lines: lines, want: want}
}

var clinicalCases = []clinicalCase{
	// Every allergy entry matched whole: brands, combinations, lists, unknown allergens (§1.4.1–2, §5.1–2).
	allergyCase("brand allergy, generic line", "§1.4.1: Augmentin is amoxicillin + clavulanate", al("Augmentin"), "Amoxicillin 500 mg", "0:allergy:hard"),
	allergyCase("class allergy, typed co-amoxiclav brand", "§1.3: Amoxiclav is co-amoxiclav", al("Penicillin"), "Amoxiclav 625 mg", "0:allergy:hard"),
	allergyCase("Biseptol allergy, co-trimoxazole line", "§1.3: Biseptol is co-trimoxazole", al("Biseptol"), "Co-trimoxazole 960 mg", "0:allergy:hard"),
	allergyCase("trimethoprim allergy, co-trimoxazole line", "§1.3: co-trimoxazole holds trimethoprim", al("Trimethoprim"), "Co-trimoxazole 480 mg", "0:allergy:hard"),
	allergyCase("second substance of a list", "§1.4.2: every substance of an entry counts", al("Paracetamol, Amoxicillin"), "Amoxicillin 500 mg", "0:allergy:hard"),
	allergyCase("Russian list: aspirin beside a class", "§1.4.2: the class word no longer drops aspirin", al("Аспирин, пенициллин"), "Ибупрофен 400 мг", "0:allergy_class:hard"),
	allergyCase("Russian list: the class", "§1.4.2", al("Аспирин, пенициллин"), "Амоксициллин 500 мг", "0:allergy:hard"),
	allergyCase("Chinese list: first substance", "§1.4.2: 阿莫西林、布洛芬过敏 is two allergies", al("阿莫西林、布洛芬过敏"), "阿莫西林胶囊 0.5g", "0:allergy:hard"),
	allergyCase("Chinese list: second substance's class", "§1.4.2", al("阿莫西林、布洛芬过敏"), "双氯芬酸钠 50mg", "0:allergy_class:hard"),
	allergyCase("paracetamol: Panadol", "§1.3 paracetamol brands", al("Paracetamol"), "Panadol 500 mg", "0:allergy:hard"),
	allergyCase("paracetamol: Hapacol", "§1.3 (VN)", al("Paracetamol"), "Hapacol 250", "0:allergy:hard"),
	allergyCase("paracetamol: Neozep", "§1.3 (PH combination)", al("Paracetamol"), "Neozep Forte", "0:allergy:hard"),
	allergyCase("paracetamol: Терафлю", "§1.3 (RU combination)", al("Paracetamol"), "Терафлю порошок", "0:allergy:hard"),
	allergyCase("paracetamol: 酚麻美敏", "§1.3 (CN combination)", al("Paracetamol"), "酚麻美敏片", "0:allergy:hard"),
	allergyCase("paracetamol: 氨酚黄那敏", "§1.3: the stem 氨酚", al("对乙酰氨基酚"), "氨酚黄那敏颗粒", "0:allergy:hard"),
	allergyCase("paracetamol: a 氨酚 product not in the list", "§5.2: Han stem 氨酚 = paracetamol", al("对乙酰氨基酚"), "氨酚咖那敏片", "0:allergy:hard"),
	allergyCase("paracetamol: Цитрамон", "§1.3 (aspirin + paracetamol)", al("Парацетамол"), "Цитрамон П", "0:allergy:hard"),
	allergyCase("aspirin: Cardiomagnyl", "§1.3 aspirin brands", al("Aspirin"), "Cardiomagnyl 75 mg", "0:allergy:hard"),
	allergyCase("allopurinol SJS written in the name", "§1.4.1, §1.4.6: SJS is severe whatever the field says", al("Allopurinol (SJS)"), "Zyloprim 300 mg", "0:allergy:hard!"),
	allergyCase("allopurinol DRESS", "§2: HLA-B*58:01, re-challenge can be fatal", al("Allopurinol", "DRESS"), "Allopurinol 100 mg", "0:allergy:hard!"),
	allergyCase("SJS/TEN in capitals is severe", "§1.4.6: SJS/TEN counts as severe", al("Carbamazepine", "SJS/TEN"), "Phenytoin 100 mg", "0:allergy_class:high!"),
	allergyCase("'ten years ago' is no TEN", "a word is not an abbreviation: no false blocking", al("Amoxicillin", "rash ten years ago", "mild"), "Cefalexin 500 mg", "0:cross_sensitivity:high"),
	allergyCase("a dress is no DRESS", "a word is not an abbreviation", al("Cefalexin", "hives after the dress fitting"), "Amoxicillin 500 mg", "0:cross_sensitivity:high"),
	allergyCase("abacavir hypersensitivity", "§2: HLA-B*57:01", al("Abacavir", "hypersensitivity", "severe"), "Abacavir 300 mg", "0:allergy:hard!"),
	allergyCase("unknown allergen, same word", "§1.4.1: an unknown allergen matches by its words", al("Nitroxoline"), "Nitroxoline 50 mg", "0:allergy:hard"),
	allergyCase("unknown allergen, Cyrillic", "§1.4.1", al("Нитроксолин (крапивница)"), "Нитроксолин 50 мг", "0:allergy:hard"),
	allergyCase("unknown allergen, Chinese", "§1.4.1", al("呋喃唑酮过敏"), "呋喃唑酮片 0.1g", "0:allergy:hard"),
	allergyCase("unknown allergen, Vietnamese", "§1.4.1", al("Nifuroxazid"), "Nifuroxazid 200mg", "0:allergy:hard"),
	allergyCase("unknown allergen, other medicine", "an unknown allergen says nothing of other medicines", al("Nitroxoline"), "Nitrofurantoin 100 mg"),
	allergyCase("clinic entry with a salt", "§1.4.5: amoxicillin trihydrate is amoxicillin", al("Penicillin"), "!Moxylin|amoxicillin trihydrate|", "0:allergy:hard"),
	allergyCase("clinic entry, losartan potassium", "§1.4.5", al("Losartan"), "!Lorista|losartan potassium|", "0:allergy:hard"),
	allergyCase("catalogue co-amoxiclav", "the starter catalogue's ingredients", al("Penicillin"), "@clavulanic", "0:allergy:hard"),

	// Classes named outright, in every language.
	allergyCase("severe penicillin, ampicillin", "class allergy, severe: blocking", al("Penicillin", "", "severe"), "Ampicillin 500 mg", "0:allergy:hard!"),
	allergyCase("Пенициллины, флуклоксациллин", "class, Russian", al("Пенициллины"), "Флуклоксациллин 500 мг", "0:allergy:hard"),
	allergyCase("青霉素, 哌拉西林他唑巴坦", "class, Chinese", al("青霉素过敏"), "哌拉西林他唑巴坦 4.5g", "0:allergy:hard"),
	allergyCase("Penicilin, amoxicilin (vi)", "class, Vietnamese", al("Penicilin"), "Amoxicilin 500mg", "0:allergy:hard"),
	allergyCase("sulfonamides, sulfasalazine", "§1.2: sulfasalazine is an arylamine sulfonamide", al("Sulfonamides"), "Sulfasalazine 500 mg", "0:allergy:hard"),
	allergyCase("sulfa, Альбуцид", "§1.2: sulfacetamide eye drops", al("Sulfa"), "Альбуцид капли 20%", "0:allergy:hard"),
	allergyCase("cephalosporins, cefdinir", "§1.2: cef- stem and new members", al("Cephalosporins"), "Cefdinir 300 mg", "0:allergy:hard"),
	allergyCase("cephalosporins, an unlisted cef- name", "§5.2: INN stem cef-", al("Cephalosporins"), "Cefoxitin 1 g", "0:allergy:hard"),
	allergyCase("fluoroquinolones, moxifloxacin", "§2: avoid the class", al("Fluoroquinolones"), "Moxifloxacin 400 mg", "0:allergy:hard"),
	allergyCase("喹诺酮, 诺氟沙星", "class, Chinese", al("喹诺酮过敏"), "诺氟沙星胶囊", "0:allergy:hard"),
	allergyCase("NSAIDs, mefenamic acid", "§1.3: PH's most-prescribed NSAID", al("NSAIDs"), "Mefenamic acid 500 mg", "0:allergy:hard"),
	allergyCase("НПВС, Найз", "§2: preferential COX-2 — most tolerate", al("НПВС"), "Найз 100 мг", "0:cross_sensitivity:low"),
	allergyCase("NSAID anaphylaxis, meloxicam", "§2: preferential COX-2 after a severe reaction", al("NSAID", "anaphylaxis"), "Meloxicam 7.5 mg", "0:cross_sensitivity:high!"),
	allergyCase("aspirin, metamizole", "§1.2: pyrazolone cross-intolerance", al("Aspirin", "asthma"), "Metamizole 500 mg", "0:cross_sensitivity:high"),
	allergyCase("aspirin, Анальгин", "§1.2 (RU brand)", al("Aspirin", "asthma"), "Анальгин 500 мг", "0:cross_sensitivity:high"),
	allergyCase("aspirin, 安乃近", "§1.2 (CN)", al("阿司匹林"), "安乃近片", "0:cross_sensitivity:high"),
	allergyCase("opioids named, tramadol", "a class named outright covers all its members", al("Opioids"), "Tramadol 50 mg", "0:allergy:hard"),
	allergyCase("macrolides, azithromycin", "class", al("Macrolides"), "Azithromycin 500 mg", "0:allergy:hard"),
	allergyCase("ACE inhibitor, perindopril", "class", al("ACE inhibitor"), "Perindopril 5 mg", "0:allergy:hard"),
	allergyCase("erythromycin, 罗红霉素", "longest name wins: 红霉素 inside 罗红霉素 is roxithromycin, a macrolide", al("Erythromycin"), "罗红霉素胶囊", "0:allergy_class:hard"),

	// Graded cross-sensitivity (§2, §5.3).
	allergyCase("Новокаин, benzocaine", "§2: esters cross-react (PABA)", al("Новокаин"), "Benzocaine gel 20%", "0:allergy_class:hard"),
	allergyCase("lidocaine, bupivacaine", "§2: amide↔amide low", al("Lidocaine"), "Bupivacaine 0.5%", "0:allergy_class:low"),
	allergyCase("procaine, lidocaine", "§2: ester↔amide none", al("Procaine"), "Lidocaine 2%"),
	allergyCase("carbamazepine SJS, oxcarbazepine", "§2: aromatic anticonvulsants, HLA-B*15:02", al("Carbamazepine", "SJS"), "Oxcarbazepine 300 mg", "0:allergy_class:high!"),
	allergyCase("carbamazepine rash, phenytoin", "§2: high, not blocking without a severe reaction", al("Carbamazepine", "rash", "moderate"), "Phenytoin 100 mg", "0:allergy_class:high"),
	allergyCase("卡马西平, 拉莫三嗪", "§2, Chinese", al("卡马西平 皮疹"), "拉莫三嗪片 25mg", "0:allergy_class:high"),
	allergyCase("carbamazepine, valproate", "not aromatic", al("Carbamazepine", "SJS"), "Valproic acid 500 mg"),
	allergyCase("amoxicillin anaphylaxis, cefadroxil", "§2: identical R1 side chain, ~16% (Picard 2019)", al("Amoxicillin", "anaphylaxis", "severe"), "Cefadroxil 500 mg", "0:cross_sensitivity:high!"),
	allergyCase("amoxicillin rash, cefalexin", "§2: same side chain", al("Amoxicillin", "rash", "mild"), "Cefalexin 500 mg", "0:cross_sensitivity:high"),
	allergyCase("amoxicillin, ceftriaxone", "§2: dissimilar side chain ~1–2%", al("Amoxicillin", "rash"), "Ceftriaxone 1 g", "0:cross_sensitivity:low"),
	allergyCase("amoxicillin anaphylaxis, ceftriaxone", "§2: after anaphylaxis a caution with a reason", al("Amoxicillin", "anaphylaxis"), "Ceftriaxone 1 g", "0:cross_sensitivity:high!"),
	allergyCase("penicillin, meropenem", "§2: carbapenems 0.87%", al("Penicillin"), "Meropenem 1 g", "0:cross_sensitivity:low"),
	allergyCase("cefalexin, amoxicillin", "§2: the same side chain in reverse", al("Cefalexin"), "Amoxicillin 500 mg", "0:cross_sensitivity:high"),
	allergyCase("ceftriaxone, cefotaxime", "§2: same methoxyimino side chain", al("Ceftriaxone"), "Cefotaxime 1 g", "0:cross_sensitivity:hard"),
	allergyCase("ceftriaxone, cefazolin", "§2: unique side chains", al("Ceftriaxone"), "Cefazolin 1 g", "0:allergy_class:low"),
	allergyCase("ceftazidime, aztreonam", "§2: identical side chain", al("Ceftazidime"), "Aztreonam 1 g", "0:cross_sensitivity:high"),
	allergyCase("penicillin unspecified, cefalexin", "a penicillin allergy may be amoxicillin: same side chain", al("Penicillin"), "Cefalexin 500 mg", "0:cross_sensitivity:high"),
	allergyCase("penicillin, cefuroxime", "§2: dissimilar side chain", al("Penicillin"), "Cefuroxime 500 mg", "0:cross_sensitivity:low"),
	allergyCase("severe codeine rash, tramadol", "§1.2: opioids split by chemistry — low, never blocking", al("Codeine", "rash", "severe"), "Tramadol 50 mg", "0:cross_sensitivity:low"),
	allergyCase("codeine, morphine", "§2: codeine is metabolised to morphine", al("Codeine"), "Morphine 10 mg", "0:allergy_class:hard"),
	allergyCase("tramadol, fentanyl", "§2: other opioids, structurally distinct", al("Tramadol"), "Fentanyl patch 25 mcg/h", "0:allergy_class:low"),
	allergyCase("statin myalgia, rosuvastatin", "§1.2: re-challenge recommended (NLA 2022)", al("Atorvastatin", "myalgia"), "Rosuvastatin 10 mg", "0:allergy_class:low"),
	allergyCase("statin rhabdomyolysis", "§1.2: rhabdomyolysis raises it", al("Simvastatin", "rhabdomyolysis"), "Atorvastatin 20 mg", "0:allergy_class:high!"),
	allergyCase("statins named, myalgia", "§1.2: a named statin class is low", al("Statins", "muscle pain"), "Rosuvastatin 10 mg", "0:allergy:low"),
	allergyCase("ACE-I angioedema, Entresto", "§2: contraindicated (label)", al("Enalapril", "angioedema"), "Entresto 50 mg", "0:cross_sensitivity:hard!"),
	allergyCase("ACE-I angioedema, losartan", "§2: recurrence 2–10% (Haymore 2008)", al("Enalapril", "angioedema"), "Losartan 50 mg", "0:cross_sensitivity:high!"),
	allergyCase("ACE-I cough, losartan", "a cough is no angioedema", al("Enalapril", "cough"), "Losartan 50 mg"),
	allergyCase("ACE-I, reaction unknown, sacubitril", "unknown reaction: treated as possible angioedema", al("Lisinopril"), "Sacubitril/valsartan 49/51 mg", "0:cross_sensitivity:hard"),
	allergyCase("contrast named, iohexol", "class", al("Iodinated contrast", "", "moderate"), "Iohexol 350", "0:allergy:hard"),
	allergyCase("iohexol urticaria, iopromide", "§2: change agent ± premedication (ACR)", al("Iohexol", "urticaria"), "Iopromide 300", "0:allergy_class:high"),
	allergyCase("celecoxib, etoricoxib", "same class", al("Celecoxib"), "Etoricoxib 90 mg", "0:allergy_class:hard"),
	allergyCase("aspirin, celecoxib", "§1.2: >95% of NERD tolerate coxibs", al("Aspirin"), "Celecoxib 200 mg", "0:cross_sensitivity:low"),
	allergyCase("ibuprofen, paracetamol", "§2: paracetamol none", al("Ibuprofen"), "Paracetamol 500 mg"),
	allergyCase("antibiotics unspecified, azithromycin", "§1.3: vague allergies prompt", al("Antibiotics"), "Azithromycin 500 mg", "0:allergy_unspecified:high"),
	allergyCase("kháng sinh, metronidazol", "§1.3 (vi)", al("Kháng sinh"), "Metronidazol 250mg", "0:allergy_unspecified:high"),
	allergyCase("обезболивающие, кеторолак", "§1.3 (ru)", al("обезболивающие"), "Кеторолак 10 мг", "0:allergy_unspecified:high"),
	allergyCase("antibiotics unspecified, paracetamol", "not an antibiotic", al("Antibiotics"), "Paracetamol 500 mg"),
	allergyCase("sulfa, furosemide", "§2: non-antibiotic sulfonamides none (Strom 2003)", al("Sulfa"), "Furosemide 40 mg"),
	allergyCase("sulfonamides, gliclazide", "§2", al("Sulfonamides"), "Gliclazide 80 mg"),
	allergyCase("sulfa, dapsone", "§1.2: dapsone low", al("Sulfa"), "Dapsone 100 mg", "0:cross_sensitivity:low"),

	// No false alarms (§1.2, §1.4.3, §5.5).
	allergyCase("iodine, iohexol", "§2: the iodine allergy myth (ACR)", al("Iodine"), "Iohexol 350 mg I/mL"),
	allergyCase("seafood, Omnipaque", "§2", al("Seafood (iodine)"), "Omnipaque 300"),
	allergyCase("йод, амиодарон", "§1.2", al("йод"), "Амиодарон 200 мг"),
	allergyCase("碘, 胺碘酮", "§1.2: no Han substring inside another name", al("碘过敏"), "胺碘酮片 0.2g"),
	allergyCase("iod, povidon iod", "§1.2", al("Iod"), "Povidon iod 10%"),
	allergyCase("contrast, 胺碘酮", "§2: unrelated", al("Iodinated contrast"), "胺碘酮 200mg"),
	allergyCase("contrast, povidone-iodine", "§2: unrelated", al("Iodinated contrast"), "Povidon iod 10%"),
	allergyCase("shellfish, iopromide", "§2", al("Shellfish"), "Iopromide 300"),
	allergyCase("ferrous sulfate, co-trimoxazole", "§1.4.3: sulfate is no sulfa", al("Ferrous sulfate", "nausea"), "Co-trimoxazole 960 mg"),
	allergyCase("Sắt sulfat, sulfamethoxazol", "§1.4.3 (vi)", al("Sắt sulfat"), "Sulfamethoxazol 400mg"),
	allergyCase("magnesium sulfate, Bactrim", "§1.4.3", al("Magnesium sulfate"), "Bactrim forte"),
	allergyCase("ferrous sulfate, ferrous sulfate", "§1.4.3: the iron line itself is flagged", al("Ferrous sulfate"), "Ferrous sulfate 200 mg", "0:allergy:hard"),
	allergyCase("NSAIDs, glucosamine", "§1.2: glucosamine is no NSAID", al("NSAIDs"), "Glucosamine 1500 mg"),
	allergyCase("NSAIDs, diacerein", "§1.2", al("NSAIDs"), "Diacerein 50 mg"),
	allergyCase("NSAIDs, paracetamol", "§2", al("NSAIDs"), "Paracetamol 500 mg"),
	allergyCase("latex, amoxicillin", "§2: latex is no medicine", al("Latex"), "Amoxicillin 500 mg"),
	allergyCase("eggs, influenza vaccine", "§2: ACIP 2023-24", al("Eggs"), "Influenza vaccine"),
	allergyCase("delabelled penicillin", "§1.4.8: de-labelled entries", al("Penicillin: delabelled after oral challenge 2025"), "Amoxicillin 500 mg"),
	allergyCase("не подтверждена", "§1.4.8 (ru)", al("аллергия на пенициллин не подтверждена"), "Амоксициллин 500 мг"),
	allergyCase("已排除", "§1.4.8 (zh)", al("青霉素过敏已排除"), "阿莫西林胶囊"),
	allergyCase("statins, nystatin", "a name wins over a stem", al("Statins"), "Nystatin 100000 IU"),
	allergyCase("普利类, 依普利酮", "a name wins over a stem (zh)", al("普利类过敏"), "依普利酮片"),
	allergyCase("omeprazole, aripiprazole", "a name wins over a stem", al("Omeprazole"), "Aripiprazole 10 mg"),

	// Duplicate therapy (§3.1, §5.6).
	linesCase("warfarin + rivaroxaban", "§3.1: two anticoagulants", []string{"Warfarin 5 mg", "Rivaroxaban 20 mg"}, "1:duplicate:high"),
	linesCase("ACE-I + ARB", "§3.1: dual RAAS blockade (ONTARGET)", []string{"Enalapril 10 mg", "Losartan 50 mg"}, "1:duplicate:high"),
	linesCase("diazepam + clonazepam", "§1.2: clonazepam is a benzodiazepine", []string{"Diazepam 5 mg", "Clonazepam 0.5 mg"}, "1:duplicate:high"),
	linesCase("Феназепам + Золпидем", "§1.2: phenazepam and Z-drugs", []string{"Феназепам 1 мг", "Золпидем 10 мг"}, "1:duplicate:high"),
	linesCase("sertraline + venlafaxine", "§3.1: SSRI + SNRI", []string{"Sertraline 50 mg", "Venlafaxine 75 mg"}, "1:duplicate:high"),
	linesCase("bisoprolol + carvedilol", "§3.1: two β-blockers", []string{"Bisoprolol 5 mg", "Carvedilol 6.25 mg"}, "1:duplicate:high"),
	linesCase("cetirizine + loratadine", "§3.1: two antihistamines", []string{"Cetirizine 10 mg", "Loratadine 10 mg"}, "1:duplicate:high"),
	linesCase("omeprazole + pantoprazole typed", "§1.4.4: free text has ATC groups", []string{"Omeprazole 20 mg", "Pantoprazole 40 mg"}, "1:duplicate:high"),
	linesCase("Омепразол + Пантопразол", "§1.4.4 (ru)", []string{"Омепразол 20 мг", "Пантопразол 40 мг"}, "1:duplicate:high"),
	linesCase("gliclazide + glimepiride", "§1.4.4", []string{"Gliclazide 80 mg", "Glimepiride 2 mg"}, "1:duplicate:high"),
	linesCase("paracetamol + Panadol Extra", "§3.1: the hidden paracetamol overdose", []string{"Paracetamol 500 mg", "Panadol Extra"}, "1:duplicate:high"),
	linesCase("Hapacol + Decolgen", "§3.1", []string{"Hapacol 500", "Decolgen forte"}, "1:duplicate:high"),
	linesCase("Alaxan + ibuprofen", "§3.1", []string{"Alaxan", "Ibuprofen 400 mg"}, "1:duplicate:high"),
	linesCase("泰诺林 + 感冒灵", "§3.1 (CN)", []string{"泰诺林 0.65g", "感冒灵颗粒"}, "1:duplicate:high"),
	linesCase("aspirin + clopidogrel", "§3.1: DAPT is no duplicate, a bleeding caution", []string{"Aspirin 81 mg", "Clopidogrel 75 mg"}, "1:interaction:low"),
	linesCase("salbutamol + salmeterol", "§3.1: reliever + controller", []string{"Salbutamol inhaler 100 mcg", "Salmeterol inhaler 25 mcg"}),
	linesCase("Seretide + Ventolin", "§3.1", []string{"Seretide 25/250", "Ventolin 100 mcg"}),
	linesCase("amoxicillin + Augmentin", "§3.1: usually unintended", []string{"Amoxicillin 500 mg", "Augmentin 625"}, "1:duplicate:high"),
	linesCase("ibuprofen + glucosamine", "§1.2", []string{"Ibuprofen 400 mg", "Glucosamine 500 mg"}),
	linesCase("celecoxib + low-dose aspirin", "§3.1: not a duplicate; a GI-risk interaction", []string{"Celecoxib 200 mg", "Aspirin 81 mg"}, "1:interaction:low"),
	linesCase("ibuprofen + diclofenac", "§3.1", []string{"Ibuprofen 400 mg", "Diclofenac 50 mg"}, "1:duplicate:high"),
	linesCase("catalogue omeprazole + pantoprazole", "ATC group", []string{"@omeprazole", "@pantoprazole"}, "1:duplicate:high"),

	// Supply-aware duplicates of the patient's other prescriptions (§3.1).
	{name: "refill near the end of supply", evidence: "§3.1: a refill is no duplicate", current: []caseCurrent{{"Amlodipine 5 mg", "30 days", 25}}, lines: []string{"Amlodipine 5 mg"}},
	{name: "same product, supply running", evidence: "a second supply while the first lasts", current: []caseCurrent{{"Amlodipine 5 mg", "30 days", 0}}, lines: []string{"Amlodipine 5 mg"}, want: []string{"0:duplicate_recent:high"}},
	{name: "course over", evidence: "a 7-day course 20 days ago", current: []caseCurrent{{"Amoxicillin 500 mg", "7 days", 20}}, lines: []string{"Co-amoxiclav 625 mg"}},
	{name: "course running, other product", evidence: "different products of one substance", current: []caseCurrent{{"Amoxicillin 500 mg", "7 days", 2}}, lines: []string{"Augmentin 625 mg"}, want: []string{"0:duplicate_recent:high"}},
	{name: "same product, supply unknown", evidence: "perhaps a refill: shown, no reason", current: []caseCurrent{{"Omeprazole 20 mg", "", 5}}, lines: []string{"Omeprazole 20 mg"}, want: []string{"0:duplicate_recent:low"}},
	// Short courses are caught while they run, from the day they are written (clinic-day
	// review 2026-11-28, M2: ibuprofen × 5 days written again the same afternoon).
	{name: "1-day course, same day", evidence: "M2: a single-dose course taken twice", current: []caseCurrent{{"Ciprofloxacin 500 mg", "1 day", 0}}, lines: []string{"Ciprofloxacin 500 mg"}, want: []string{"0:duplicate_recent:high"}},
	{name: "1-day course, next day", evidence: "its supply has run", current: []caseCurrent{{"Ciprofloxacin 500 mg", "1 day", 1}}, lines: []string{"Ciprofloxacin 500 mg"}},
	{name: "3-day course, same day", evidence: "M2: azithromycin × 3 days re-applied from a set", current: []caseCurrent{{"Azithromycin 500 mg", "3 days", 0}}, lines: []string{"Azithromycin 500 mg"}, want: []string{"0:duplicate_recent:high"}},
	{name: "5-day course, same day", evidence: "M2: ibuprofen × 5 days", current: []caseCurrent{{"Ibuprofen 400 mg", "5 days", 0}}, lines: []string{"Ibuprofen 400 mg"}, want: []string{"0:duplicate_recent:high"}},
	{name: "5-day course, day 3", evidence: "M2: early in a short course, a second course", current: []caseCurrent{{"Ibuprofen 400 mg", "5 days", 2}}, lines: []string{"Ibuprofen 400 mg"}, want: []string{"0:duplicate_recent:high"}},
	{name: "5-day course, last day", evidence: "within its last quarter: a renewal, an NSAID's said (refill review M2)", current: []caseCurrent{{"Ibuprofen 400 mg", "5 days", 4}}, lines: []string{"Ibuprofen 400 mg"}, want: []string{"0:duplicate_recent:low"}},
	{name: "5-day course, over", evidence: "its supply has run", current: []caseCurrent{{"Ibuprofen 400 mg", "5 days", 5}}, lines: []string{"Ibuprofen 400 mg"}},
	{name: "7-day course, day 3", evidence: "M2: amoxicillin × 7 days", current: []caseCurrent{{"Amoxicillin 500 mg", "7 days", 3}}, lines: []string{"Amoxicillin 500 mg"}, want: []string{"0:duplicate_recent:high"}},
	{name: "7-day course, last day", evidence: "within its last quarter: an antibiotic's extension, said (refill review M2)", current: []caseCurrent{{"Amoxicillin 500 mg", "7 days", 6}}, lines: []string{"Amoxicillin 500 mg"}, want: []string{"0:duplicate_recent:low"}},
	{name: "14-day supply renewed on day 12", evidence: "clinician's review: a long-term medicine supplied a fortnight at a time", current: []caseCurrent{{"Amlodipine 5 mg", "14 days", 12}}, lines: []string{"Amlodipine 5 mg"}},
	{name: "14-day supply written again on day 5", evidence: "a second supply while the first lasts", current: []caseCurrent{{"Amlodipine 5 mg", "14 days", 5}}, lines: []string{"Amlodipine 5 mg"}, want: []string{"0:duplicate_recent:high"}},
	{name: "warfarin running, apixaban", evidence: "two anticoagulants", current: []caseCurrent{{"Warfarin 5 mg", "30 days", 10}}, lines: []string{"Apixaban 5 mg"}, want: []string{"0:duplicate_recent:high"}},
	{name: "Russian duration", evidence: "«1 мес» read as 30 days", current: []caseCurrent{{"Амлодипин 5 мг", "1 мес", 26}}, lines: []string{"Амлодипин 5 мг"}},

	// The refill window as a pharmacist would sign it (review of 2026-11-29, its case numbers):
	// a quarter of the supply, at most 14 days; controlled medicines a tenth, at most 3 days,
	// their supplies added up; renewals of courses said as a caution; supply from the quantity.
	refillCase("#1 90-day supply renewed on day 76", "M3: BC PharmaCare 14 days", []caseRx{given("Amlodipine 5 mg", "3 months", 76)}, "Amlodipine 5 mg"),
	refillCase("#2 90-day supply renewed on day 83", "M3", []caseRx{given("Amlodipine 5 mg", "3 months", 83)}, "Amlodipine 5 mg"),
	refillCase("#3 a month with two refills, day 76", "M3: refills count", []caseRx{given("Amlodipine 5 mg", "1 month", 76, "refills", 2)}, "Amlodipine 5 mg"),
	refillCase("#4 60-day supply renewed on day 46", "M3", []caseRx{given("Metformin 500 mg", "2 months", 46)}, "Metformin 500 mg"),
	refillCase("#5 30-day supply renewed on day 20", "M3: a quarter of a month is 7 days", []caseRx{given("Amlodipine 5 mg", "30 days", 20)}, "Amlodipine 5 mg", "0:duplicate_recent:high"),
	refillCase("#6 tramadol renewed 7 days early", "M1: controlled, 3 days at most", []caseRx{given("Tramadol 50 mg", "30 days", 23)}, "Tramadol 50 mg", "0:duplicate_recent:high"),
	refillCase("#7 diazepam renewed 6 days early", "M1", []caseRx{given("Diazepam 5 mg", "30 days", 24)}, "Diazepam 5 mg", "0:duplicate_recent:high"),
	refillCase("#8 diazepam renewed early twice", "M1: SHPNC 180-day accumulation, 14 days on hand",
		[]caseRx{given("Diazepam 5 mg", "30 days", 46), given("Diazepam 5 mg", "30 days", 23)}, "Diazepam 5 mg", "0:duplicate_recent:high"),
	refillCase("zolpidem renewed on its last 2 days", "M1: inside the narrow window", []caseRx{given("Zolpidem 10 mg", "30 days", 28)}, "Zolpidem 10 mg"),
	refillCase("pregabalin stock built over months", "M1: 4 days early each month, 12 days on hand",
		[]caseRx{given("Pregabalin 75 mg", "30 days", 78), given("Pregabalin 75 mg", "30 days", 52), given("Pregabalin 75 mg", "30 days", 26)}, "Pregabalin 75 mg", "0:duplicate_recent:high"),
	refillCase("#10 amoxicillin extended on its last day", "M2: stewardship, LOW", []caseRx{given("Amoxicillin 500 mg", "5 days", 4, "frequency", "tds")}, "Amoxicillin 500 mg", "0:duplicate_recent:low"),
	refillCase("#11 amoxicillin again on day 4 of 5", "M2: a second course", []caseRx{given("Amoxicillin 500 mg", "5 days", 3)}, "Amoxicillin 500 mg", "0:duplicate_recent:high"),
	refillCase("#12 prednisolone extended", "M2: systemic corticosteroid, LOW", []caseRx{given("Prednisolone 5 mg", "5 days", 4, "dose", "8 tablets", "frequency", "once daily")}, "Prednisolone 5 mg", "0:duplicate_recent:low"),
	refillCase("#13 Panadol after paracetamol", "M2: one medicine under two names", []caseRx{given("Paracetamol 500 mg", "5 days", 4)}, "Panadol 500 mg", "0:duplicate_recent:low"),
	refillCase("#14 co-amoxiclav beside amoxicillin", "another product of one substance", []caseRx{given("Amoxicillin 500 mg", "7 days", 6)}, "Co-amoxiclav 625 mg", "0:duplicate_recent:high"),
	refillCase("#15 lisinopril + HCTZ beside lisinopril", "another product of one substance", []caseRx{given("Lisinopril 10 mg", "30 days", 25)}, "Lisinopril + Hydrochlorothiazide 10/12.5 mg", "0:duplicate_recent:high"),
	refillCase("#16 amlodipine 10 mg near the end of 5 mg (typed)", "m2: a dose change is said", []caseRx{given("Amlodipine 5 mg", "30 days", 25)}, "Amlodipine 10 mg", "0:duplicate_recent:low"),
	refillCase("#16 amlodipine 10 mg near the end of 5 mg (catalogue)", "m2: another strength is the same product", []caseRx{given("@amlodipine 5", "30 days", 25)}, "@amlodipine 10", "0:duplicate_recent:low"),
	refillCase("amlodipine 10 mg on day 5 of 5 mg (catalogue)", "a second supply while the first lasts", []caseRx{given("@amlodipine 5", "30 days", 5)}, "@amlodipine 10", "0:duplicate_recent:high"),
	refillCase("#17 diclofenac gel after tablets", "m2: a local form beside a systemic one", []caseRx{given("Diclofenac 50 mg", "5 days", 1)}, "Diclofenac gel 1%", "0:duplicate_recent:low"),
	refillCase("diclofenac 1% saying no form", "a form not written is not guessed", []caseRx{given("Diclofenac 50 mg", "5 days", 1)}, "Diclofenac 1%", "0:duplicate_recent:high"),
	refillCase("#21 warfarin by quantity, apixaban", "M4: 90 tablets, 1 daily",
		[]caseRx{given("Warfarin 5 mg", "", 40, "quantity", "90", "frequency", "1 daily")}, "Apixaban 5 mg", "0:duplicate_recent:high"),
	refillCase("warfarin by quantity, Russian frequency", "M4", []caseRx{given("Варфарин 5 мг", "", 40, "quantity", "60", "dose", "1 таб", "frequency", "1 раз в день")}, "Apixaban 5 mg", "0:duplicate_recent:high"),
	refillCase("#22 warfarin for 6 months, day 100", "M4: loaded by supply end", []caseRx{given("Warfarin 5 mg", "6 months", 100)}, "Apixaban 5 mg", "0:duplicate_recent:high"),
	refillCase("#22 warfarin for 6 months, day 100, interaction", "M4: a current medicine while supplied", []caseRx{given("Warfarin 5 mg", "6 months", 100)}, "Ibuprofen 400 mg", "0:interaction:high"),
	refillCase("#23 warfarin for 6 months, day 60", "guard", []caseRx{given("Warfarin 5 mg", "6 months", 60)}, "Apixaban 5 mg", "0:duplicate_recent:high"),
	refillCase("ended controlled medicine: no interaction", "a stock's history is no current medicine", []caseRx{given("Diazepam 5 mg", "30 days", 150)}, "Tramadol 50 mg"),
	refillCase("#24 paracetamol as needed, by quantity", "M4: 20 tablets at 8 a day, kept longer",
		[]caseRx{given("Paracetamol 500 mg", "", 3, "quantity", "20", "dose", "1-2 tablets", "frequency", "every 6 hours as needed")}, "Paracetamol 500 mg", "0:duplicate_recent:low"),
	refillCase("#25 paracetamol as needed, 100 tablets", "M4: 12.5 days at 8 a day", []caseRx{given("Paracetamol 500 mg", "5 days", 6, "quantity", "100", "dose", "1-2 tablets", "frequency", "q6h prn")}, "Paracetamol 500 mg", "0:duplicate_recent:low"),
	refillCase("#27 cancelled the same day", "guard: a cancelled prescription is none", []caseRx{{line: "Ibuprofen 400 mg", fields: map[string]any{"duration": "5 days"}, cancelled: true}}, "Ibuprofen 400 mg"),

	// Drug–drug interactions (§3.2).
	linesCase("warfarin + ibuprofen", "§3.2 #1", []string{"Warfarin 5 mg", "Ibuprofen 400 mg"}, "1:interaction:high"),
	linesCase("warfarin + co-trimoxazole", "§3.2 #2", []string{"Warfarin 5 mg", "Co-trimoxazole 960 mg"}, "1:interaction:high"),
	linesCase("methotrexate + Biseptol", "§3.2 #4: contraindicated", []string{"Methotrexate 10 mg", "Biseptol 480"}, "1:interaction:hard!"),
	linesCase("enalapril + spironolactone", "§3.2 #5", []string{"Enalapril 10 mg", "Spironolactone 25 mg"}, "1:interaction:high"),
	linesCase("triple whammy", "§3.2 #6", []string{"Lisinopril 10 mg", "Hydrochlorothiazide 25 mg", "Ibuprofen 400 mg"}, "2:interaction:high"),
	linesCase("ACE-I/diuretic combination + NSAID", "§3.2 #6: the third party may be in the combination product", []string{"Lisinopril + Hydrochlorothiazide 10/12.5 mg", "Ibuprofen 400 mg"}, "1:interaction:high"),
	linesCase("ACE-I + NSAID", "§3.2 #6 without a diuretic", []string{"Lisinopril 10 mg", "Ibuprofen 400 mg"}, "1:interaction:low"),
	linesCase("simvastatin + clarithromycin", "§3.2 #7: contraindicated", []string{"Simvastatin 40 mg", "Clarithromycin 500 mg"}, "1:interaction:hard!"),
	linesCase("sildenafil + ISMN", "§3.2 #8: contraindicated", []string{"Sildenafil 50 mg", "Isosorbide mononitrate 20 mg"}, "1:interaction:hard!"),
	linesCase("tramadol + sertraline", "§3.2 #9", []string{"Tramadol 50 mg", "Sertraline 50 mg"}, "1:interaction:high"),
	linesCase("clarithromycin + domperidone", "§3.2 #11: contraindicated (EMA 2014)", []string{"Clarithromycin 500 mg", "Domperidone 10 mg"}, "1:interaction:hard!"),
	linesCase("azithromycin + ondansetron", "§3.2 #10: QT", []string{"Azithromycin 500 mg", "Ondansetron 8 mg"}, "1:interaction:high"),
	linesCase("tramadol + diazepam", "§3.2 #12", []string{"Tramadol 50 mg", "Diazepam 5 mg"}, "1:interaction:high"),
	linesCase("colchicine + clarithromycin", "§3.2 #13", []string{"Colchicine 0.5 mg", "Clarithromycin 500 mg"}, "1:interaction:high"),
	linesCase("gliclazide + ciprofloxacin", "§3.2 #14", []string{"Gliclazide 80 mg", "Ciprofloxacin 500 mg"}, "1:interaction:high"),
	linesCase("clopidogrel + omeprazole", "§3.2 #15", []string{"Clopidogrel 75 mg", "Omeprazole 20 mg"}, "1:interaction:low"),
	linesCase("clopidogrel + pantoprazole", "§3.2 #15: pantoprazole is the alternative", []string{"Clopidogrel 75 mg", "Pantoprazole 40 mg"}),
	linesCase("ciprofloxacin + calcium", "§3.2 next: chelation", []string{"Ciprofloxacin 500 mg", "Calcium carbonate 500 mg"}, "1:interaction:low"),
	linesCase("bisoprolol + verapamil", "§3.2 next: AV block", []string{"Bisoprolol 5 mg", "Verapamil 80 mg"}, "1:interaction:high"),
	linesCase("allopurinol + azathioprine", "§3.2 next", []string{"Allopurinol 100 mg", "Azathioprine 50 mg"}, "1:interaction:high"),
	linesCase("lithium + ibuprofen", "§3.2 next", []string{"Lithium carbonate 300 mg", "Ibuprofen 400 mg"}, "1:interaction:high"),
	linesCase("carbamazepine + contraceptive", "§3.2 next", []string{"Carbamazepine 200 mg", "Ethinylestradiol 30 mcg"}, "1:interaction:high"),
	linesCase("Варфарин + Ибупрофен", "§3.2 #1 (ru)", []string{"Варфарин 5 мг", "Ибупрофен 400 мг"}, "1:interaction:high"),
	linesCase("华法林 + 布洛芬", "§3.2 #1 (zh)", []string{"华法林钠片 2.5mg", "布洛芬缓释胶囊"}, "1:interaction:high"),
	linesCase("warfarin + cefuroxime", "no rule", []string{"Warfarin 5 mg", "Cefuroxime 500 mg"}),
	linesCase("paracetamol + amoxicillin", "nothing to say", []string{"Paracetamol 500 mg", "Amoxicillin 500 mg"}),
	{name: "current warfarin, metronidazole", evidence: "§3.2 #2 against the current medicines", current: []caseCurrent{{"Warfarin 5 mg", "30 days", 3}}, lines: []string{"Metronidazole 400 mg"}, want: []string{"0:interaction:high"}},
	{name: "warfarin 80 days ago, supply unknown", evidence: "current medicines: the last 90 days", current: []caseCurrent{{"Warfarin 5 mg", "", 80}}, lines: []string{"Ibuprofen 400 mg"}, want: []string{"0:interaction:high"}},
	// Azithromycin raises the INR less than clarithromycin, but does (clinic-day review 2026-11-28: the README says macrolides).
	linesCase("warfarin + azithromycin", "m10: Lane et al. 2014, bleeding HR 1.93 as ciprofloxacin's", []string{"Warfarin 5 mg", "Azithromycin 500 mg"}, "1:interaction:high"),

	// The medicines the list must read (the pharmacist's review of the current-medicines list, 2026-11-29, M1 and M6).
	linesCase("T2 Varfarin typed", "M1: a common misspelling", []string{"Varfarin 5 mg", "Ibuprofen 400 mg"}, "1:interaction:high"),
	linesCase("T2 Sintrom", "M1: acenocoumarol B01AA07", []string{"Sintrom 4 mg", "Ibuprofen 400 mg"}, "1:interaction:high"),
	linesCase("T2 Acenocoumarol + metronidazole", "M1: a coumarin, CYP2C9", []string{"Acenocoumarol 4 mg", "Metronidazole 400 mg"}, "1:interaction:high"),
	linesCase("T2 Marcumar + apixaban", "M1: phenprocoumon is an anticoagulant", []string{"Marcumar 3 mg", "Apixaban 5 mg"}, "1:duplicate:high"),
	linesCase("T12 warfarin + amiodarone", "M6: Stockley's major, reduce warfarin 30-50%", []string{"Warfarin 5 mg", "Amiodarone 200 mg"}, "1:interaction:high"),
	linesCase("T12 Амиодарон + Варфарин", "M6 (ru)", []string{"Амиодарон 200 мг", "Варфарин 2.5 мг"}, "1:interaction:high"),
	linesCase("T13 sertraline + ibuprofen", "M6: de Abajo 2008, GI bleeding", []string{"Sertraline 50 mg", "Ibuprofen 400 mg"}, "1:interaction:high"),
	linesCase("T13 venlafaxine + naproxen", "M6: an SNRI", []string{"Venlafaxine 75 mg", "Naproxen 250 mg"}, "1:interaction:high"),
	linesCase("St John's wort + warfarin", "M6: a strong inducer", []string{"St John's wort 300 mg", "Warfarin 5 mg"}, "1:interaction:high"),
	linesCase("Зверобой + сертралин", "M6: serotonergic (ru)", []string{"Зверобой трава", "Сертралин 50 мг"}, "1:interaction:high"),
	linesCase("Hypericum + tramadol", "M6: serotonergic", []string{"Hypericum perforatum extract", "Tramadol 50 mg"}, "1:interaction:high"),
	linesCase("Ginkgo biloba + warfarin", "M6: a caution (case reports)", []string{"Ginkgo biloba 120 mg", "Warfarin 5 mg"}, "1:interaction:low"),

	// Medicines recorded as taken, not prescribed here (clinic-day review 2026-11-28, M4): current as the supply of a prescription here is.
	{name: "warfarin from elsewhere, ibuprofen", evidence: "M4: the anticoagulant a specialist prescribes", taken: []caseTaken{{line: "Warfarin 5 mg", source: "elsewhere"}},
		lines: []string{"Ibuprofen 400 mg"}, want: []string{"0:interaction:high"}},
	{name: "warfarin from elsewhere stopped, ibuprofen", evidence: "a stopped medicine is no current one", taken: []caseTaken{{line: "Warfarin 5 mg", source: "elsewhere", stopped: true}},
		lines: []string{"Ibuprofen 400 mg"}},
	{name: "catalogue warfarin from elsewhere, metronidazole", evidence: "§3.2 #2 with the catalogue entry's ingredients", taken: []caseTaken{{line: "@warfarin", source: "elsewhere"}},
		lines: []string{"Metronidazole 400 mg"}, want: []string{"0:interaction:high"}},
	{name: "OTC ibuprofen, diclofenac", evidence: "§3.1: two NSAIDs, one bought over the counter", taken: []caseTaken{{line: "Ibuprofen 200 mg", source: "otc"}},
		lines: []string{"Diclofenac 50 mg"}, want: []string{"0:duplicate_taken:high"}},
	{name: "OTC ibuprofen, ibuprofen", evidence: "the same product: perhaps taken over, a caution", taken: []caseTaken{{line: "Ibuprofen 200 mg", source: "otc"}},
		lines: []string{"Ibuprofen 400 mg"}, want: []string{"0:duplicate_taken:low"}},
	{name: "amoxicillin from elsewhere, penicillin allergy", evidence: "recording a medicine the patient is allergic to warns at once", allergies: []caseAllergy{al("Penicillin")},
		taken: []caseTaken{{line: "Amoxicillin 500 mg", source: "elsewhere"}}, lines: []string{"Paracetamol 500 mg"}, want: []string{"recorded:allergy:hard"}},

	// The list checked as it is kept (the pharmacist's review of the current-medicines list, 2026-11-29, C1):
	// recording a medicine runs the whole check against everything else the patient takes.
	{name: "T3 warfarin recorded while ibuprofen here is supplied", evidence: "C1: NPSG.03.06.01 EP3", earlier: []caseRx{given("Ibuprofen 400 mg", "30 days", 2)},
		taken: []caseTaken{{line: "Warfarin 5 mg", source: "elsewhere"}}, lines: []string{"Paracetamol 500 mg"}, want: []string{"recorded:interaction:high"}},
	{name: "T4 OTC naproxen on top of warfarin recorded and ibuprofen here", evidence: "C1: an NSAID twice and an anticoagulant",
		earlier: []caseRx{given("Ibuprofen 400 mg", "30 days", 2)},
		taken:   []caseTaken{{line: "Warfarin 5 mg", source: "elsewhere"}, {line: "Naproxen 250 mg", source: "otc"}}, lines: []string{"Paracetamol 500 mg"},
		want: []string{"recorded:duplicate_recent:high", "recorded:interaction:high", "recorded:interaction:high"}},
	{name: "T5 Panadol then Efferalgan recorded", evidence: "C1: two packs of paracetamol at home",
		taken: []caseTaken{{line: "Panadol 500 mg", source: "otc"}, {line: "Efferalgan 500 mg", source: "otc"}}, lines: []string{"Amoxicillin 500 mg"},
		want: []string{"recorded:duplicate_taken:high"}},
	// A medicine stopped acts on through its washout (M2): fluoxetine 5 weeks, amiodarone 3 months.
	{name: "T10 fluoxetine stopped today, moclobemide", evidence: "M2: fluoxetine label, 5 weeks before an MAOI",
		taken: []caseTaken{{line: "Fluoxetine 20 mg", source: "elsewhere", stopped: true}}, lines: []string{"Moclobemide 150 mg"}, want: []string{"0:interaction:hard!"}},
	{name: "T10 fluoxetine stopped today, tramadol", evidence: "M2: serotonin syndrome during the washout",
		taken: []caseTaken{{line: "Fluoxetine 20 mg", source: "elsewhere", stopped: true}}, lines: []string{"Tramadol 50 mg"}, want: []string{"0:interaction:high"}},
	{name: "fluoxetine stopped today, sertraline", evidence: "M2: a switch is no duplicate",
		taken: []caseTaken{{line: "Fluoxetine 20 mg", source: "elsewhere", stopped: true}}, lines: []string{"Sertraline 50 mg"}},
	{name: "fluoxetine stopped 40 days ago, moclobemide", evidence: "M2: after the 5 weeks, nothing",
		taken: []caseTaken{{line: "Fluoxetine 20 mg", source: "elsewhere", stopped: true, stoppedDaysAgo: 40}}, lines: []string{"Moclobemide 150 mg"}},
	{name: "T11 amiodarone stopped today, clarithromycin", evidence: "M2: amiodarone half-life 40-55 days",
		taken: []caseTaken{{line: "Amiodarone 200 mg", source: "elsewhere", stopped: true}}, lines: []string{"Clarithromycin 500 mg"}, want: []string{"0:interaction:high"}},
	{name: "amiodarone here ran out 70 days ago, warfarin", evidence: "M2: a run-out supply acts through its washout",
		earlier: []caseRx{given("Amiodarone 200 mg", "30 days", 100)}, lines: []string{"Warfarin 5 mg"}, want: []string{"0:interaction:high"}},
	{name: "amiodarone here ran out 100 days ago, warfarin", evidence: "M2: after the washout, nothing",
		earlier: []caseRx{given("Amiodarone 200 mg", "30 days", 130)}, lines: []string{"Warfarin 5 mg"}},
	{name: "m2 diclofenac gel recorded, ibuprofen tablets", evidence: "m2: a local form beside a systemic one, as ADR 25 says",
		taken: []caseTaken{{line: "Diclofenac gel 1%", source: "otc"}}, lines: []string{"Ibuprofen 400 mg"}, want: []string{"0:duplicate_taken:low"}},
	linesCase("m3 Aspirin 81 mg + ibuprofen", "m3: at antiplatelet doses the interaction is the issue", []string{"Aspirin 81 mg", "Ibuprofen 400 mg"}, "1:interaction:low"),
	linesCase("m3 Кардиомагнил + Ибупрофен", "m3 (ru)", []string{"Кардиомагнил", "Ибупрофен 400 мг"}, "1:interaction:low"),
	linesCase("aspirin 500 mg + ibuprofen", "m3 guard: aspirin as a painkiller is a second NSAID", []string{"Aspirin 500 mg", "Ibuprofen 400 mg"}, "1:duplicate:high", "1:interaction:low"),
	{name: "the same medicine recorded twice alike", evidence: "C1: a double entry, a caution",
		taken: []caseTaken{{line: "Omeprazole 20 mg", source: "otc"}, {line: "Omeprazole 20 mg", source: "elsewhere"}}, lines: []string{"Amoxicillin 500 mg"},
		want: []string{"recorded:duplicate_taken:low"}},
}

func TestClinicalCases(t *testing.T) {
	if n := len(clinicalCases); n < 100 {
		t.Fatalf("only %d clinical cases", n)
	}
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		for _, c := range clinicalCases {
			t.Run(c.name, func(t *testing.T) {
				got := s.runCase(t, db, c)
				want := slices.Clone(c.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("%s (%s):\n got  %v\n want %v", c.name, c.evidence, got, want)
				}
			})
		}
	})
}

// runCase makes a patient with the case's allergies and current medicines, checks its
// lines, and returns the findings as "line:kind:tier[!]", sorted.
func (s *setup) runCase(t *testing.T, db *database.DB, c clinicalCase) []string {
	t.Helper()
	history := map[string]any{"allergy_status": "none"}
	if len(c.allergies) > 0 {
		var list []map[string]string
		for _, a := range c.allergies {
			list = append(list, map[string]string{"substance": a.substance, "reaction": a.reaction, "severity": a.severity})
		}
		history = map[string]any{"allergy_status": "present", "allergies": list}
	}
	var p struct{ ID int64 }
	if r := s.doctor.Do("POST", "/api/patients", map[string]any{"first_name": "Case", "last_name": c.name, "birth_date": "1960-01-01", "sex": "male",
		"history": history}); r.Status != http.StatusCreated {
		t.Fatalf("patient: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &p)
	}
	earlier := slices.Clone(c.earlier)
	for _, cur := range c.current {
		earlier = append(earlier, caseRx{line: cur.line, fields: map[string]any{"duration": cur.duration, "quantity": "30"}, daysAgo: cur.daysAgo})
	}
	for _, cur := range earlier {
		item := s.caseLine(t, cur.line)
		maps.Copy(item, cur.fields)
		var pre checked
		s.doctor.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": p.ID, "items": []any{item}}).JSON(t, &pre)
		var keys []string
		for _, f := range pre.Findings {
			keys = append(keys, f.Key)
		}
		if len(keys) > 0 {
			item["override_reason"], item["overrides"] = "Set up by the test", keys
		}
		var rx struct{ ID int64 }
		r := s.doctor.Do("POST", "/api/prescriptions", map[string]any{"patient_id": p.ID, "items": []any{item}})
		if r.Status != http.StatusCreated {
			t.Fatalf("current medicine: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &rx)
		at := time.Now().UTC().AddDate(0, 0, -cur.daysAgo)
		if _, err := db.Exec(`UPDATE prescriptions SET created_at = $1 WHERE id = $2`, at, rx.ID); err != nil {
			t.Fatal(err)
		}
		if cur.issued {
			if _, err := db.Exec(`UPDATE prescriptions SET status = 'issued', issued_at = $1 WHERE id = $2`, at, rx.ID); err != nil {
				t.Fatal(err)
			}
		}
		if cur.cancelled {
			if _, err := db.Exec(`UPDATE prescriptions SET status = 'cancelled' WHERE id = $1`, rx.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := []string{}
	for _, tk := range c.taken {
		item := s.caseLine(t, tk.line)
		item["source"] = tk.source
		maps.Copy(item, tk.fields)
		var got struct {
			ID       int64
			Version  int
			Findings []struct{ Kind, Tier string }
		}
		r := s.nurse.Do("POST", fmt.Sprintf("/api/patients/%d/current-medicines", p.ID), item)
		if r.Status != http.StatusCreated {
			t.Fatalf("record %s: %d %s", tk.line, r.Status, r.Body)
		}
		r.JSON(t, &got)
		for _, f := range got.Findings {
			out = append(out, "recorded:"+f.Kind+":"+f.Tier)
		}
		if tk.stopped {
			stop := map[string]any{"version": got.Version, "category": "doctor_decision", "reason": "Stopped by the cardiologist"}
			if tk.stoppedDaysAgo > 0 {
				stop["stopped_on"] = time.Now().AddDate(0, 0, -tk.stoppedDaysAgo).Format(time.DateOnly)
			}
			if r := s.nurse.Do("POST", fmt.Sprintf("/api/current-medicines/%d/stop", got.ID), stop); r.Status != http.StatusOK {
				t.Fatalf("stop %s: %d %s", tk.line, r.Status, r.Body)
			}
		}
	}
	var items []any
	for _, l := range c.lines {
		items = append(items, s.caseLine(t, l))
	}
	lang := c.lang
	if lang == "" {
		lang = "en"
	}
	s.doctor.SetCookie("language", lang)
	defer s.doctor.SetCookie("language", "en")
	got := s.check(t, map[string]any{"patient_id": p.ID, "items": items})
	for _, f := range got.Findings {
		v := fmt.Sprintf("%d:%s:%s", f.Line, f.Kind, f.Tier)
		if f.Blocking {
			v += "!"
		}
		if f.Tier == "" || f.RequiresReason != (f.Tier != "low") {
			t.Errorf("tier and reason disagree: %+v", f)
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// caseLine makes a prescription line of a case's line text.
func (s *setup) caseLine(t *testing.T, l string) map[string]any {
	t.Helper()
	item := map[string]any{"medicine": l, "quantity": "10"}
	switch {
	case strings.HasPrefix(l, "@"):
		id := s.medicineID(t, strings.TrimPrefix(l, "@"))
		item["medicine_id"], item["medicine"] = id, strings.TrimPrefix(l, "@")
	case strings.HasPrefix(l, "!"):
		f := strings.Split(strings.TrimPrefix(l, "!"), "|")
		var m struct{ ID int64 }
		r := s.admin.Do("POST", "/api/medicines", map[string]any{"generic_name": f[0], "strength": "1 tablet", "form": "tablet", "unit": "tablet",
			"ingredients": f[1], "atc": f[2]})
		if r.Status != http.StatusCreated {
			t.Fatalf("medicine %s: %d %s", f[0], r.Status, r.Body)
		}
		r.JSON(t, &m)
		item["medicine_id"], item["medicine"] = m.ID, f[0]
	}
	return item
}
