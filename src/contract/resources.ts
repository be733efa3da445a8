/**
 * The resources of the platform, v1 and v2beta1 side by side. This table is the only place where a
 * path, a field name or an envelope key of the platform is written down.
 */
import {
  assumed,
  documented,
  sameField,
  referenceField,
  UID_NAME_DESCRIPTION,
  timestampFields,
  uidField,
  UIDP_FILTERS,
  V1_REF,
  V2_DOC,
  v1Surface,
  v2Surface,
} from './builders.js';
import type { ResourceContract, ResourceKind } from './types.js';

const GROUP_NAME_PATTERN = '^[a-z0-9 ._-]{1,}$';

const group: ResourceContract = {
  kind: 'Group',
  domain: 'iam',
  singular: 'group',
  modelled: true,
  parent: 'Group',
  mayBeTopLevel: true,
  v1: v1Surface({
    domain: 'iam',
    collection: 'groups',
    filters: ['name', ...UIDP_FILTERS],
    rule: documented(`${V1_REF} "v1 calls"; ${V2_DOC} §4 "v1 endpoints"`),
  }),
  v2: v2Surface({
    domain: 'iam',
    collection: 'groups',
    filters: ['name', ...UIDP_FILTERS],
    rule: documented(`${V2_DOC} §4 "IAM endpoints"`),
  }),
  fields: [
    uidField,
    sameField('name', 'string', 'mutable', documented(`${V2_DOC} §2 Group`), { required: true, pattern: GROUP_NAME_PATTERN }),
    sameField('description', 'string', 'mutable', documented(`${V2_DOC} §2 Group`)),
    sameField('resourceLimits', 'int-map', 'mutable', documented(`${V2_DOC} §2 Group: empty object by default; v1 shows integer members`), {
      knownKeys: ['clusters', 'idps', 'repositories'],
      normalise: 'int-map-zero-defaults',
    }),
    sameField('verified', 'boolean', 'output-only', assumed('v2 §2 says only "false on newly created groups"; taken as set by the platform, not by clients')),
    // v1 groups carry no timestamps (v1-reference table); v2 adds them.
    { v2: 'createTime', type: 'timestamp', access: 'output-only', ...documented(`${V2_DOC} §2 Group; ${V1_REF} table (no v1 timestamps)`) },
    { v2: 'updateTime', type: 'timestamp', access: 'output-only', ...documented(`${V2_DOC} §2 Group; ${V1_REF} table (no v1 timestamps)`) },
  ],
};

const identity: ResourceContract = {
  kind: 'Identity',
  domain: 'iam',
  singular: 'identity',
  modelled: true,
  parent: 'Group',
  v1: v1Surface({ domain: 'iam', collection: 'identities', filters: [...UIDP_FILTERS], rule: documented(`${V1_REF} "v1 calls"`) }),
  v2: v2Surface({
    domain: 'iam',
    collection: 'identities',
    filters: ['name', ...UIDP_FILTERS],
    rule: documented(`${V1_REF} "v2beta1 calls not spelled out"`),
    rules: { create: documented(`${V2_DOC} §4 "IAM endpoints"`), delete: documented(`${V2_DOC} §4 "IAM endpoints"`) },
  }),
  fields: [
    uidField,
    sameField('name', 'string', 'mutable', documented(`${V2_DOC} §2 Identity`), { required: true }),
    sameField('description', 'string', 'mutable', documented(`${V2_DOC} §2 Identity`)),
    sameField('claimMatch', 'claim-match', 'mutable', documented(`${V2_DOC} §2 Identity: issuer and subject given at creation`), { required: true }),
    // claimMatch may change by update: v1's PUT replaces it with the rest of the resource.
    { v1: 'lastSeen', v2: 'lastSeenTime', type: 'timestamp', access: 'output-only', normalise: 'timestamp-precision', ...documented(`${V2_DOC} §2 Identity; ${V1_REF} table`) },
    ...timestampFields(),
  ],
  notes: [
    { text: 'claimMatch may change by update, like name and description.', ...assumed('v2 §2 says issuer and subject are given at creation, not whether they can change') },
  ],
};

const role: ResourceContract = {
  kind: 'Role',
  domain: 'iam',
  singular: 'role',
  modelled: true,
  parent: 'Group',
  mayBeTopLevel: true,
  v1: v1Surface({ domain: 'iam', collection: 'roles', filters: ['name', 'parent', ...UIDP_FILTERS], rule: documented(`${V1_REF} "v1 calls"`) }),
  v2: v2Surface({
    domain: 'iam',
    collection: 'roles',
    filters: ['name', ...UIDP_FILTERS],
    rule: documented(`${V1_REF} "v2beta1 calls not spelled out"`),
    rules: {
      list: documented(`${V2_DOC} §4 "IAM endpoints"`),
      create: assumed(`${V2_DOC} §4: role create payloads "not shown"; taken to mirror groups (parent in path, name and description in body)`),
      delete: assumed(`${V2_DOC} §4: role delete "not shown"; taken to mirror groups`),
    },
  }),
  fields: [
    uidField,
    sameField('name', 'string', 'mutable', documented(`${V2_DOC} §2 Role`), { required: true }),
    sameField('description', 'string', 'mutable', documented(`${V2_DOC} §2 Role`)),
    // v2's Role table lists uid, name, description only: capabilities (and timestamps) are not shown.
    { v1: 'capabilities', type: 'string-list', access: 'mutable', ...documented(`${V1_REF} table; absent from ${V2_DOC} §2 Role`) },
  ],
};

const roleBinding: ResourceContract = {
  kind: 'RoleBinding',
  domain: 'iam',
  singular: 'roleBinding',
  modelled: true,
  parent: 'Group',
  v1: v1Surface({ domain: 'iam', collection: 'rolebindings', filters: [...UIDP_FILTERS], rule: documented(`${V1_REF} "v1 calls"`) }),
  v2: v2Surface({
    domain: 'iam',
    collection: 'roleBindings',
    filters: [...UIDP_FILTERS],
    rule: documented(`${V1_REF} "v2beta1 calls not spelled out"`),
    rules: {
      create: documented(`${V2_DOC} §4 "IAM endpoints"`),
      delete: documented(`${V2_DOC} §4 "IAM endpoints"`),
      update: assumed(`${V1_REF} gives PATCH for every collection; the mutable field (role, written roleUid) is the emulator's choice`),
    },
  }),
  fields: [
    uidField,
    referenceField('identity', 'immutable', {
      target: 'Identity',
      v1Form: 'uid',
      hydratedFields: [...UID_NAME_DESCRIPTION, { name: 'subject', from: 'claimMatch.subject' }, { name: 'issuer', from: 'claimMatch.issuer' }],
      writeKey: { v1: 'identity', v2: 'identityUid' },
    }),
    referenceField('role', 'mutable', {
      target: 'Role',
      v1Form: 'object',
      hydratedFields: UID_NAME_DESCRIPTION,
      writeKey: { v1: 'role', v2: 'roleUid' },
    }),
    // The group is the parent in the create path, never in the body.
    referenceField('group', 'output-only', { target: 'Group', v1Form: 'object', hydratedFields: UID_NAME_DESCRIPTION }),
    // A binding shows createTime only (v2 §2 RoleBinding), and v1 lists createdAt.
    timestampFields()[0]!,
  ],
  notes: [
    { text: 'A binding keeps its identity for life; an update may change its role only.', ...assumed('the spec gives no binding update payload') },
  ],
};

const repo: ResourceContract = {
  kind: 'Repo',
  domain: 'registry',
  singular: 'repo',
  modelled: true,
  parent: 'Group',
  v1: v1Surface({ domain: 'registry', collection: 'repos', filters: ['name', ...UIDP_FILTERS], rule: documented(`${V1_REF} "v1 calls"`) }),
  v2: v2Surface({
    domain: 'registry',
    collection: 'repos',
    filters: ['name', ...UIDP_FILTERS],
    rule: documented(`${V2_DOC} §4 "Registry endpoints"`),
    rules: {
      get: documented(`${V2_DOC} §1 (Repos: List, Get); path from ${V1_REF} "likewise for other resources"`),
      create: null,
      update: null,
      delete: null,
    },
  }),
  fields: [
    uidField,
    sameField('name', 'string', 'mutable', documented(`${V2_DOC} §2 Repo`), { required: true }),
    // v1 repos already call it createTime: nothing to rename.
    { v1: 'createTime', v2: 'createTime', type: 'timestamp', access: 'output-only', normalise: 'timestamp-precision', ...documented(`${V2_DOC} §2 Repo; ${V1_REF} table`) },
    sameField('description', 'string', 'mutable', assumed(`${V2_DOC} §2: "other repo fields: not shown"; taken to be carried unchanged`)),
    sameField('aliases', 'string-list', 'mutable', assumed(`${V2_DOC} §2: "other repo fields: not shown"; taken to be carried unchanged`)),
    { v2: 'updateTime', type: 'timestamp', access: 'output-only', ...assumed(`${V2_DOC} §2: every v2 resource carries updateTime "except where noted"`) },
  ],
};

const tag: ResourceContract = {
  kind: 'Tag',
  domain: 'registry',
  singular: 'tag',
  modelled: true,
  parent: 'Repo',
  v1: v1Surface({ domain: 'registry', collection: 'tags', filters: ['name', ...UIDP_FILTERS], rule: documented(`${V1_REF} "v1 calls"`) }),
  v2: v2Surface({
    domain: 'registry',
    collection: 'tags',
    filters: ['name', ...UIDP_FILTERS],
    rule: documented(`${V1_REF} "v2beta1 calls not spelled out"`),
    rules: {
      create: null,
      update: null, // "v2beta1 tags have no Update" (v1-reference)
      delete: null,
    },
  }),
  fields: [
    uidField,
    sameField('name', 'string', 'mutable', documented(`${V1_REF} table`), { required: true }),
    sameField('digest', 'string', 'mutable', assumed(`${V2_DOC} §2: Tag fields "not shown"; taken to be carried unchanged`), { required: true }),
    sameField('deprecated', 'boolean', 'mutable', assumed(`${V2_DOC} §2: Tag fields "not shown"; taken to be carried unchanged`)),
    { v1: 'lastUpdated', v2: 'updateTime', type: 'timestamp', access: 'output-only', normalise: 'timestamp-precision', ...assumed(`${V2_DOC} §2: Tag fields "not shown"; the uniform resource shape (§1) makes lastUpdated the updateTime`) },
    { v2: 'createTime', type: 'timestamp', access: 'output-only', ...assumed(`${V2_DOC} §2: every v2 resource carries createTime "except where noted"`) },
  ],
};

const advisory: ResourceContract = {
  kind: 'Advisory',
  domain: 'vulnerabilities',
  singular: 'advisory',
  modelled: true,
  parent: null,
  v1: v1Surface({
    domain: 'vulnerabilities',
    collection: 'advisories',
    filters: [],
    paginated: true,
    rule: documented(`${V1_REF} table: advisories list is already {items, nextPageToken, totalCount}`),
    rules: { create: null, update: null, delete: null },
  }),
  v2: v2Surface({
    domain: 'vulnerabilities',
    collection: 'advisories',
    filters: ['name'],
    rule: documented(`${V2_DOC} §1 (Advisories: List, Get); envelope key by §2's plural lower-camel rule; paths by ${V1_REF} "likewise"`),
    rules: { create: null, update: null, delete: null },
  }),
  fields: [
    uidField,
    ...timestampFields(),
    sameField('name', 'string', 'immutable', assumed(`${V2_DOC} §2: Advisory fields "not shown"; the emulator names advisories by CVE id`)),
    sameField('severity', 'string', 'immutable', assumed(`${V2_DOC} §2: Advisory fields "not shown"`)),
    sameField('summary', 'string', 'immutable', assumed(`${V2_DOC} §2: Advisory fields "not shown"`)),
  ],
  notes: [
    { text: 'Advisories are global: their uids are one segment, outside any group.', ...assumed('neither document gives an advisory uid') },
  ],
};

/** Known by their paths only: the spec shows none of their fields (v2 §2, §4 "Other IAM operations"). */
function pathOnly(kind: ResourceKind, singular: string, v1Collection: string, v2Collection: string): ResourceContract {
  const v1Rule = assumed(`${V1_REF}: "v1 rolebindings is lowercase"; the other camel v2 collections are taken to be lowercase in v1 too`);
  const v2Rule = documented(`${V1_REF} "Note the path spelling"; payloads not shown in ${V2_DOC} §4`);
  return {
    kind,
    domain: 'iam',
    singular,
    modelled: false,
    parent: 'Group',
    v1: v1Surface({ domain: 'iam', collection: v1Collection, filters: [...UIDP_FILTERS], rule: v1Rule }),
    v2: v2Surface({ domain: 'iam', collection: v2Collection, filters: [...UIDP_FILTERS], rule: v2Rule }),
    fields: [uidField, ...timestampFields()],
  };
}

export const RESOURCES: readonly ResourceContract[] = [
  group,
  identity,
  role,
  roleBinding,
  repo,
  tag,
  advisory,
  pathOnly('IdentityProvider', 'identityProvider', 'identityproviders', 'identityProviders'),
  pathOnly('AccountAssociation', 'accountAssociation', 'accountassociations', 'accountAssociations'),
  pathOnly('GroupInvite', 'groupInvite', 'groupinvites', 'groupInvites'),
];
