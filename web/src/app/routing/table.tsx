// The routes of spec §2 and their meta. constantRoutes are every logged-in user's;
// asyncRoutes are added after login for the roles and permissions the user holds.
import { CalendarIcon, ControlIcon, DashboardIcon, ExperimentIcon, FormIcon, SafetyIcon, TeamIcon, UserIcon, WalletIcon } from '../../light/icons'
import { lazy } from 'react'
import { chartParts, visitParts } from '../slots'
import type { AppRoute, PageComponent } from './types'

/**
 * A screen's code, loaded when it is first shown, or fetched ahead by preload (when the screen
 * before it is idle). As it is shown, the code of the parts it shows through slots
 * (app/slots.tsx) is fetched beside it, not after it has drawn; not ahead with it, which made
 * the screen before it (the list, the queue) busier as it loaded (Lighthouse, 2026-11-30).
 */
const page = (load: Parameters<typeof lazy>[0], parts: (() => Promise<unknown>)[] = []): PageComponent =>
  Object.assign(
    lazy(() => {
      parts.forEach((part) => void part().catch(() => undefined))
      return load()
    }),
    { preload: load },
  )

const Dashboard = page(() => import('../../features/dashboard/DashboardPage'))
const PatientList = page(() => import('../../features/patients/PatientListPage'))
const PatientForm = page(() => import('../../features/patients/PatientFormPage'))
const PatientChart = page(() => import('../../features/patients/PatientChartPage'), chartParts)
const ImportPatients = page(() => import('../../features/patients/ImportPatientsPage'))
const Appointments = page(() => import('../../features/appointments/AppointmentsPage'))
const Diagnosis = page(() => import('../../features/appointments/DiagnosisPage'), visitParts)
const PrintPrescription = page(() => import('../../features/prescriptions/PrintPage'))
const BlankPrescription = page(() => import('../../features/prescriptions/BlankPrescriptionPage'))
const SelfProfile = page(() => import('../../features/profile/SelfProfilePage'))
const MyProfile = page(() => import('../../features/profile/MyProfilePage'))
const Medicines = page(() => import('../../features/settings/MedicinesPage'))
const MedicineSafety = page(() => import('../../features/settings/MedicineSafetyPage'))
const Services = page(() => import('../../features/fees/ServicesPage'))
const FeeReports = page(() => import('../../features/fees/ReportsPage'))
const CashUp = page(() => import('../../features/fees/CashUpPage'))
const Bills = page(() => import('../../features/fees/BillsPage'))
const OrdersToCharge = page(() => import('../../features/fees/OrdersToChargePage'))
const PrintDrawer = page(() => import('../../features/fees/PrintDrawerPage'))
const BillPage = page(() => import('../../features/fees/BillPage'))
const PrintBill = page(() => import('../../features/fees/PrintBillPage'))
const ChartingAids = page(() => import('../../features/charting/ChartingPage'))
const DocumentTemplates = page(() => import('../../features/documents/TemplatesPage'))
const DocumentTemplate = page(() => import('../../features/documents/TemplateEditorPage'))
const PrintDocument = page(() => import('../../features/documents/PrintDocumentPage'))
const ResultsCatalogue = page(() => import('../../features/settings/ResultsCataloguePage'))
const Clinic = page(() => import('../../features/settings/ClinicPage'))
const PatientMessages = page(() => import('../../features/messages/MessageLogPage'))
const ImmunisationDue = page(() => import('../../features/immunisations/due/DueListPage'))
const PatientMessageSettings = page(() => import('../../features/messages/MessageSettingsPage'))
const PatientReleaseSettings = page(() => import('../../features/release/ReleaseSettingsPage'))
const OnlineBookingSettings = page(() => import('../../features/booking/BookingSettingsPage'))
const ImmunisationSettings = page(() => import('../../features/settings/ImmunisationSettingsPage'))
const Backups = page(() => import('../../features/settings/BackupsPage'))
const Users = page(() => import('../../features/administration/UsersPage'))
const ApiAccess = page(() => import('../../features/administration/ApiAccessPage'))
const UserEdit = page(() => import('../../features/administration/UserEditPage'))
const Roles = page(() => import('../../features/administration/RolesPage'))
const RolePreview = page(() => import('../../features/administration/RolePreviewPage'))
const AuditLog = page(() => import('../../features/administration/AuditPage'))
const ResultsReview = page(() => import('../../features/results/ReviewPage'))
const OverdueOrders = page(() => import('../../features/results/OverduePage'))
const CriticalReport = page(() => import('../../features/results/CriticalReportPage'))
const LabOrder = page(() => import('../../features/results/OrderPage'))
const WhatICanDo = page(() => import('../WhatICanDoPage'))
const SmartConsent = page(() => import('../../features/smart/ConsentPage'))
const NotFound = page(() => import('../NotFoundPage'))

export const constantRoutes: AppRoute[] = [
  // A SMART app's authorization request, approved by the signed-in user (ADR 40).
  {
    path: '/smart',
    hidden: true,
    children: [{ path: 'authorize', name: 'SmartConsent', hidden: true, component: SmartConsent, meta: { title: 'smartConsent', noCache: true, everyone: true } }],
  },
  {
    path: '/',
    redirect: '/dashboard',
    children: [{ path: 'dashboard', name: 'Dashboard', component: Dashboard, meta: { title: 'dashboard', icon: <DashboardIcon />, affix: true, noCache: true, light: true } }],
  },
  {
    path: '/masterfile',
    redirect: '/masterfile/patients',
    alwaysShow: true,
    meta: { title: 'masterFile', icon: <TeamIcon />, permissions: ['view patient'] },
    children: [
      { path: 'patients', name: 'Patients', component: PatientList, prefetch: [PatientChart], meta: { title: 'patients', light: true } },
      { path: 'patient_form/:id', name: 'PatientForm', hidden: true, component: PatientForm, meta: { title: 'patientForm', permissions: ['manage patient'], params: { id: /^(new|\d+)$/ } } },
      {
        path: 'profile/:id/:pid',
        name: 'PatientProfile',
        hidden: true,
        component: PatientChart,
        prefetch: [Diagnosis],
        meta: { title: 'patientProfile', noCache: true, light: true, params: { id: /^\d+$/ } },
      },
    ],
  },
  {
    path: '/appointments',
    redirect: '/appointments/appointments',
    meta: { title: 'appointments', icon: <CalendarIcon />, permissions: ['view appointment'] },
    children: [
      { path: 'appointments', name: 'Appointments', component: Appointments, prefetch: [Diagnosis, PatientChart], meta: { title: 'appointments', icon: <CalendarIcon />, light: true } },
      // Nurses open it for the vitals, doctors for the diagnosis; receptionists not at all.
      {
        path: 'form/:id',
        name: 'Diagnosis',
        hidden: true,
        component: Diagnosis,
        meta: { title: 'diagnosis', noCache: true, light: true, permissions: ['write diagnosis', 'record vitals'], params: { id: /^\d+$/ } },
      },
      { path: 'messages', name: 'PatientMessages', component: PatientMessages, meta: { title: 'patientMessages', permissions: ['send messages'] } },
      // The children due a vaccination: the desk books and reminds, the nurse who gives them works it too.
      {
        path: 'immunisations-due',
        name: 'ImmunisationDue',
        component: ImmunisationDue,
        meta: { title: 'immunisationDue', light: true, permissions: ['record immunisations', 'manage appointment'] },
      },
    ],
  },
  {
    path: '/results',
    redirect: '/results/overdue',
    meta: { title: 'results', icon: <ExperimentIcon />, permissions: ['record results', 'review results'] },
    children: [
      { path: 'review', name: 'ResultsReview', component: ResultsReview, meta: { title: 'resultsReview', permissions: ['review results'] } },
      { path: 'overdue', name: 'OverdueOrders', component: OverdueOrders, meta: { title: 'overdueOrders' } },
      { path: 'critical', name: 'CriticalReport', component: CriticalReport, meta: { title: 'criticalReport', permissions: ['review results'] } },
      // An order opens from a visit, the chart, the review queue or an alert.
      {
        path: 'orders/:id',
        name: 'LabOrder',
        hidden: true,
        component: LabOrder,
        meta: { title: 'labOrder', noCache: true, permissions: ['record results', 'review results', 'write diagnosis'], params: { id: /^\d+$/ } },
      },
    ],
  },
  {
    path: '/fees',
    redirect: '/fees/cash-up',
    meta: { title: 'fees', icon: <WalletIcon />, permissions: ['view financial reports', 'cash up own drawer', 'record payment'] },
    children: [
      { path: 'bills', name: 'Bills', component: Bills, meta: { title: 'bills', permissions: ['record payment', 'view financial reports'] } },
      { path: 'orders-to-charge', name: 'OrdersToCharge', component: OrdersToCharge, meta: { title: 'ordersToCharge', noCache: true, permissions: ['record payment', 'view financial reports'] } },
      { path: 'cash-up', name: 'CashUp', component: CashUp, meta: { title: 'cashUp', noCache: true, permissions: ['view financial reports', 'cash up own drawer'] } },
      { path: 'reports', name: 'FeeReports', component: FeeReports, meta: { title: 'feeReports', icon: <WalletIcon />, permissions: ['view financial reports'] } },
      {
        path: 'drawers/:id/print',
        name: 'PrintDrawer',
        hidden: true,
        component: PrintDrawer,
        meta: { title: 'printDrawer', noCache: true, permissions: ['view financial reports', 'cash up own drawer'], params: { id: /^\d+$/ } },
      },
    ],
  },
  {
    // A bill opens from a report, the queue or a replaced bill; the front desk prints it here.
    path: '/bills',
    redirect: '/fees/reports',
    hidden: true,
    meta: { permissions: ['record charges', 'record payment', 'view financial reports'] },
    children: [
      { path: ':id', name: 'Bill', hidden: true, component: BillPage, meta: { title: 'bill', noCache: true, light: true, params: { id: /^\d+$/ } } },
      {
        path: ':id/print/:doc',
        name: 'PrintBill',
        hidden: true,
        component: PrintBill,
        meta: { title: 'printBill', noCache: true, params: { id: /^\d+$/, doc: /^(statement|receipt|refund)$/ } },
      },
    ],
  },
  {
    // An issued document prints again for whoever may see the patient (the server records it).
    path: '/documents',
    redirect: '/masterfile/patients',
    hidden: true,
    meta: { permissions: ['view patient'] },
    children: [
      { path: ':id/print', name: 'PrintDocument', hidden: true, component: PrintDocument, meta: { title: 'printDocument', noCache: true, params: { id: /^\d+$/ } } },
    ],
  },
  {
    path: '/profile',
    redirect: '/profile/edit',
    hidden: true,
    children: [{ path: 'edit', name: 'SelfProfile', component: SelfProfile, meta: { title: 'selfProfile' } }],
  },
  {
    path: '/prescriptions',
    redirect: '/forms/blankPrescription',
    hidden: true,
    meta: { permissions: ['write prescription', 'write diagnosis', 'record vitals'] },
    children: [
      {
        path: 'print/:id',
        name: 'PrintPrescription',
        hidden: true,
        component: PrintPrescription,
        meta: { title: 'printPrescription', noCache: true, params: { id: /^\d+$/ } },
      },
    ],
  },
]

export const asyncRoutes: AppRoute[] = [
  {
    path: '/permission',
    redirect: '/permission/page',
    hidden: true,
    alwaysShow: true,
    meta: { title: 'permission', icon: <SafetyIcon />, permissions: ['view menu permission'] },
    children: [
      { path: 'page', name: 'PagePermission', component: RolePreview, meta: { title: 'rolePreview', permissions: ['manage permission'] } },
      // Spec §2: "no restriction" — every logged-in user can see what they may do.
      { path: 'directive', name: 'DirectivePermission', component: WhatICanDo, meta: { title: 'whatICanDo', everyone: true } },
    ],
  },
  {
    path: '/administrator',
    redirect: '/administrator/users',
    alwaysShow: true,
    meta: { title: 'administrator', icon: <ControlIcon />, roles: ['admin'] },
    children: [
      { path: 'users', name: 'Users', component: Users, meta: { title: 'users', permissions: ['manage user'] } },
      { path: 'users/edit/:id', name: 'UserEdit', hidden: true, component: UserEdit, meta: { title: 'editUser', permissions: ['manage user'], params: { id: /^\d+$/ } } },
      { path: 'roles', name: 'RolePermission', component: Roles, meta: { title: 'rolePermission', permissions: ['manage permission'] } },
      { path: 'audit', name: 'AuditLog', component: AuditLog, meta: { title: 'auditLog', permissions: ['view audit log'] } },
      { path: 'medicines', name: 'Medicines', component: Medicines, meta: { title: 'medicines', permissions: ['manage catalogue'] } },
      { path: 'medicine-safety', name: 'MedicineSafety', component: MedicineSafety, meta: { title: 'medicineSafety', permissions: ['manage catalogue'] } },
      { path: 'results-catalogue', name: 'ResultsCatalogue', component: ResultsCatalogue, meta: { title: 'resultsCatalogue', permissions: ['manage catalogue'] } },
      { path: 'services', name: 'Services', component: Services, meta: { title: 'services', permissions: ['manage fees'] } },
      { path: 'clinic', name: 'Clinic', component: Clinic, meta: { title: 'clinic', permissions: ['manage settings'] } },
      { path: 'patient-messages', name: 'PatientMessageSettings', component: PatientMessageSettings, meta: { title: 'patientMessageSettings', permissions: ['manage settings'] } },
      { path: 'patient-release', name: 'PatientReleaseSettings', component: PatientReleaseSettings, meta: { title: 'patientReleaseSettings', permissions: ['manage settings'] } },
      { path: 'online-booking', name: 'OnlineBookingSettings', component: OnlineBookingSettings, meta: { title: 'onlineBooking', permissions: ['manage settings'] } },
      { path: 'immunisations', name: 'ImmunisationSettings', component: ImmunisationSettings, meta: { title: 'immunisationSettings', permissions: ['manage settings'] } },
      { path: 'backups', name: 'Backups', component: Backups, meta: { title: 'backups', permissions: ['manage settings'] } },
      { path: 'api-access', name: 'ApiAccess', component: ApiAccess, meta: { title: 'apiAccess', permissions: ['manage user'] } },
      { path: 'import-patients', name: 'ImportPatients', component: ImportPatients, meta: { title: 'importPatients', permissions: ['manage patient'] } },
    ],
  },
  {
    path: '/forms',
    redirect: '/forms/blankPrescription',
    alwaysShow: true,
    // The spec writes the roles as the single string 'admin, doctor': it means both roles.
    meta: { title: 'forms', icon: <FormIcon />, roles: 'admin, doctor'.split(',').map((r) => r.trim()) },
    children: [
      { path: 'blankPrescription', name: 'BlankPrescription', component: BlankPrescription, meta: { title: 'blankPrescription' } },
      { path: 'charting', name: 'ChartingAids', component: ChartingAids, meta: { title: 'chartingAids', permissions: ['write diagnosis'] } },
      { path: 'templates', name: 'DocumentTemplates', component: DocumentTemplates, meta: { title: 'documentTemplates', permissions: ['manage templates'] } },
      {
        path: 'templates/:id',
        name: 'DocumentTemplate',
        hidden: true,
        component: DocumentTemplate,
        meta: { title: 'documentTemplate', noCache: true, permissions: ['manage templates'], params: { id: /^(new|\d+)$/ } },
      },
    ],
  },
  {
    path: '/user-profile',
    redirect: '/user-profile/user-profile',
    meta: { roles: ['admin', 'doctor'] },
    children: [
      { path: 'user-profile', name: 'UserProfile', component: MyProfile, meta: { title: 'myProfile', icon: <UserIcon />, affix: true, roles: ['admin', 'doctor'] } },
    ],
  },
]

/** The last route: unknown paths inside the layout. */
export const notFoundRoute: AppRoute = { path: '*', component: NotFound, meta: { title: 'notFound' } }
