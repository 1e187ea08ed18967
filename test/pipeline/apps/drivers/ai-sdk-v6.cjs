module.exports = require('./ai-sdk.cjs').aiSdkDriver('ai');
