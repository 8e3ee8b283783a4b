-- Each account's name as it looks (its key's UTS #39 skeleton): two names that look
-- alike cannot both be taken. Accounts made before have none (NULL) until they are
-- given one; the index takes any number of NULLs.
ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;
CREATE UNIQUE INDEX accounts_name_skeleton ON accounts (name_skeleton);
