import { App, Button, Card, Form, Input, Select, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { showFormErrors } from '../../../lib/formErrors'
import { type ClinicInteraction, type ClinicInteractionInput, useSafetyChanges } from '../api/safetyChanges'
import { AdditionsTable } from './AdditionsTable'
import styles from './InteractionsCard.module.css'

const SEVERITIES = ['contraindicated', 'major', 'moderate'] as const
const EFFECTS = ['bleeding', 'inr_rise', 'myelotoxicity', 'hyperkalaemia', 'kidney_injury', 'myopathy', 'hypotension', 'serotonin_syndrome', 'qt_prolongation', 'cns_depression', 'drug_toxicity', 'hypoglycaemia', 'reduced_effect', 'reduced_absorption', 'av_block', 'contraceptive_failure', 'lactic_acidosis', 'other'] as const
const ACTIONS = ['avoid', 'review_need', 'monitor_inr', 'monitor_potassium', 'monitor_kidney', 'reduce_dose', 'monitor_ecg', 'monitor_glucose', 'monitor_levels', 'use_alternative', 'separate_doses', 'monitor_heart_rate', 'extra_contraception', 'hold_metformin'] as const
const SEVERITY_COLOUR = { contraindicated: 'red', major: 'orange', moderate: 'blue' } as const

/** The clinic's interaction rules: two medicines or classes the check recognises, a severity, the effect, what to do and the source. */
export function InteractionsCard({ rules }: { rules: ClinicInteraction[] }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<ClinicInteractionInput>()
  const { addInteraction, removeInteraction } = useSafetyChanges()
  const required = [{ required: true, whitespace: true, message: t('validation.required') }]

  const add = async (v: ClinicInteractionInput) => {
    try {
      await addInteraction.mutateAsync({ ...v, note: v.note ?? '' })
      message.success(t('medicineSafety.added'))
      form.resetFields()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }

  return (
    <Card title={t('medicineSafety.interactions')}>
      <Form form={form} layout="vertical" onFinish={(v) => void add(v)} className={styles.form}>
        <Form.Item name="first" label={t('medicineSafety.first')} rules={required}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="second" label={t('medicineSafety.second')} rules={required}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="severity" label={t('medicineSafety.severity')} rules={required}>
          <Select options={SEVERITIES.map((s) => ({ value: s, label: t(`rx.safety.severity.${s}`) }))} />
        </Form.Item>
        <Form.Item name="effect" label={t('medicineSafety.effect')} rules={required}>
          <Select options={EFFECTS.map((s) => ({ value: s, label: t(`rx.safety.effect.${s}`) }))} />
        </Form.Item>
        <Form.Item name="action" label={t('medicineSafety.action')} rules={required}>
          <Select options={ACTIONS.map((s) => ({ value: s, label: t(`rx.safety.action.${s}`) }))} />
        </Form.Item>
        <Form.Item name="source" label={t('medicineSafety.source')} rules={required}>
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item name="note" label={t('medicineSafety.note')} className={styles.wide}>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 3 }} maxLength={1000} />
        </Form.Item>
        <Form.Item className={styles.wide}>
          <Button type="primary" htmlType="submit" loading={addInteraction.isPending}>
            {t('medicineSafety.addInteraction')}
          </Button>
        </Form.Item>
      </Form>
      <AdditionsTable<ClinicInteraction>
        label={t('medicineSafety.interactions')}
        rows={rules}
        minWidth={720}
        empty={t('medicineSafety.noInteractions')}
        nameOf={(r) => `${r.first} + ${r.second}`}
        onRemove={(r, done) => removeInteraction.mutate(r.id, { onSuccess: done })}
        columns={[
          { key: 'pair', title: t('medicineSafety.pair'), render: (_: unknown, r: ClinicInteraction) => `${r.first} + ${r.second}` },
          { key: 'severity', title: t('medicineSafety.severity'), render: (_: unknown, r: ClinicInteraction) => <Tag color={SEVERITY_COLOUR[r.severity]}>{t(`rx.safety.severity.${r.severity}`)}</Tag> },
          { key: 'effect', title: t('medicineSafety.effect'), render: (_: unknown, r: ClinicInteraction) => `${t(`rx.safety.effect.${r.effect}`)}. ${t(`rx.safety.action.${r.action}`)}` },
          { key: 'source', dataIndex: 'source', title: t('medicineSafety.source') },
        ]}
      />
    </Card>
  )
}
