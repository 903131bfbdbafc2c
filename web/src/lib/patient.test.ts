import { fullName } from './patient'

describe('fullName: one rule for every screen and print', () => {
  const mike = { first_name: 'Mike', middle_name: 'J.', last_name: 'Anderson' }
  const an = { first_name: 'An', middle_name: 'Văn', last_name: 'Nguyễn' }
  const ivan = { first_name: 'Иван', middle_name: 'Петрович', last_name: 'Сидоров' }
  const wang = { first_name: '小明', middle_name: '', last_name: '王' }
  it('writes each language’s own order', () => {
    expect(fullName(mike, 'en')).toBe('Mike J. Anderson')
    expect(fullName(ivan, 'ru')).toBe('Сидоров Иван Петрович')
    expect(fullName(an, 'vi')).toBe('Nguyễn Văn An')
    expect(fullName(mike, 'zh')).toBe('Anderson Mike J.')
  })
  it('writes a Chinese name in characters without spaces', () => {
    expect(fullName(wang, 'zh')).toBe('王小明')
    expect(fullName(wang, 'en')).toBe('小明 王')
  })
})
