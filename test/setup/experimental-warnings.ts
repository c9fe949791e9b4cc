// The test runner is an executable like main.ts: the IdP runs inside its workers, and jose's
// tests use WebCrypto ML-DSA as an independent implementation, so the same expected WebCrypto
// ML-DSA warnings are dropped here (idp/src/experimental-warnings.ts says why), and no other.
import { dropExpectedExperimentalWarnings } from '../../idp/src/experimental-warnings.ts';

dropExpectedExperimentalWarnings();
