package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"emr/internal/patient"
)

// A name set of one script: family names, given names by sex, and optional middle names.
type nameSet struct {
	family       []string
	familyFemale []string // where family names change with sex (Russian); else nil
	male, female []string
	middleM      []string
	middleF      []string
	phonePrefix  string
	weight       int
}

var nameSets = []nameSet{
	{ // Vietnamese
		family:      []string{"Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Huỳnh", "Phan", "Vũ", "Võ", "Đặng", "Bùi", "Đỗ", "Hồ", "Ngô", "Dương", "Lý"},
		male:        []string{"An", "Bình", "Dũng", "Hải", "Hiếu", "Hùng", "Khánh", "Long", "Nam", "Phong", "Quân", "Sơn", "Tuấn", "Thắng", "Việt"},
		female:      []string{"Châu", "Hà", "Hạnh", "Hoa", "Hương", "Lan", "Linh", "Mai", "Nga", "Phương", "Tâm", "Thảo", "Trang", "Vy", "Yến"},
		middleM:     []string{"Văn", "Hữu", "Đức", "Minh", "Quốc", "Thanh"},
		middleF:     []string{"Thị", "Ngọc", "Thu", "Minh", "Thanh", "Kim"},
		phonePrefix: "+84 9", weight: 4,
	},
	{ // Russian
		family:       []string{"Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов", "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров"},
		familyFemale: []string{"Иванова", "Смирнова", "Кузнецова", "Попова", "Васильева", "Петрова", "Соколова", "Михайлова", "Новикова", "Фёдорова", "Морозова", "Волкова", "Алексеева", "Лебедева", "Семёнова", "Егорова"},
		male:         []string{"Александр", "Дмитрий", "Максим", "Сергей", "Андрей", "Алексей", "Иван", "Михаил", "Николай", "Юрий"},
		female:       []string{"Анна", "Мария", "Елена", "Ольга", "Наталья", "Екатерина", "Татьяна", "Ирина", "Светлана", "Юлия"},
		middleM:      []string{"Сергеевич", "Иванович", "Петрович", "Алексеевич", "Николаевич"},
		middleF:      []string{"Сергеевна", "Ивановна", "Петровна", "Алексеевна", "Николаевна"},
		phonePrefix:  "+7 9", weight: 2,
	},
	{ // Chinese
		family:      []string{"王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭", "何", "高", "林", "罗"},
		male:        []string{"伟", "强", "磊", "军", "洋", "勇", "杰", "涛", "明", "超", "建华", "国强", "志明", "小龙"},
		female:      []string{"芳", "娜", "敏", "静", "丽", "艳", "娟", "霞", "秀英", "海燕", "小红", "玉兰"},
		phonePrefix: "+86 13", weight: 2,
	},
	{ // English
		family:  []string{"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Wilson", "Taylor", "Anderson", "Thomas", "Moore", "Martin", "Clark", "Lewis"},
		male:    []string{"James", "John", "Robert", "Michael", "David", "William", "Richard", "Joseph", "Thomas", "Daniel"},
		female:  []string{"Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Susan", "Jessica", "Sarah", "Karen", "Emily"},
		middleM: []string{"", "", "Lee", "Ray", "Paul"}, middleF: []string{"", "", "Ann", "Rose", "Grace"},
		phonePrefix: "+1 555", weight: 2,
	},
}

var allergens = []string{"Penicillin", "Aspirin", "Sulfonamides", "Peanuts", "Latex", "Iodine contrast", "Ibuprofen"}

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

// RandomPatient returns a plausible patient from r; the same r gives the same patients.
func RandomPatient(r *rand.Rand, today time.Time) patient.Input {
	set := weighted(r, nameSets, func(s nameSet) int { return s.weight })
	in := patient.Input{Sex: "male"}
	i := r.IntN(len(set.family))
	in.LastName = set.family[i]
	if r.IntN(2) == 0 {
		in.Sex = "female"
		in.FirstName = pick(r, set.female)
		if set.familyFemale != nil {
			in.LastName = set.familyFemale[i]
		}
		if set.middleF != nil {
			in.MiddleName = pick(r, set.middleF)
		}
	} else {
		in.FirstName = pick(r, set.male)
		if set.middleM != nil {
			in.MiddleName = pick(r, set.middleM)
		}
	}
	in.BirthDate = today.AddDate(0, 0, -r.IntN(95*365)).Format(time.DateOnly)
	in.Phone = fmt.Sprintf("%s%d %03d %04d", set.phonePrefix, r.IntN(10), r.IntN(1000), r.IntN(10000))
	in.BloodType = pick(r, patient.BloodTypes[1:])
	in.History = patient.History{Allergies: []patient.Allergy{}, Chronic: []string{}, Family: []string{}}
	// Most were asked (a fifth has an allergy), a few not yet.
	switch n := r.IntN(10); {
	case n < 2:
		in.History.Allergies = append(in.History.Allergies, patient.Allergy{Substance: pick(r, allergens), Severity: pick(r, patient.Severities[1:])})
	case n < 9:
		in.History.AllergyStatus = patient.AllergiesNone
	}
	if r.IntN(4) == 0 {
		in.History.Chronic = append(in.History.Chronic, pick(r, patient.Chronic))
	}
	return in
}

// Patients registers n random patients in batches, calling progress after each batch.
func Patients(ctx context.Context, store *patient.Store, n int, seed uint64, progress func(done int)) error {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	today := time.Now().UTC()
	const batch = 50_000
	for done := 0; done < n; {
		size := min(batch, n-done)
		in := make([]patient.Input, size)
		for i := range in {
			in[i] = RandomPatient(r, today)
		}
		if err := store.BulkInsert(ctx, in); err != nil {
			return err
		}
		done += size
		if progress != nil {
			progress(done)
		}
	}
	return nil
}

// weighted picks one of items, each as likely as its weight.
func weighted[T any](r *rand.Rand, items []T, weight func(T) int) T {
	total := 0
	for _, it := range items {
		total += weight(it)
	}
	n := r.IntN(total)
	for _, it := range items {
		if n < weight(it) {
			return it
		}
		n -= weight(it)
	}
	return items[0]
}
