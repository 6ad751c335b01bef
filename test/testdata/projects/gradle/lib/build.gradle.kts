plugins { `java-library` }
